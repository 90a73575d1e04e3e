// The page of `vikinger serve`: it asks the local server for the position and sends the
// person's choices; the server holds the game (docs/web.md). No framework, no build step.
'use strict';

const HEADINGS = {
  buy: ['Buy a group', 'Click a dashed circle on the wheel, or a button below.'],
  start: ['Choose the row of your start tile', 'Click a dashed cell in column 1 of your board.'],
  ship: ['Place your ship', 'Click a dashed cell in the ships row of your board.'],
  tile: ['Place your island tile', 'Click a dashed cell on your board.'],
  viking: ['Where does your Viking go?', 'Click the dashed ring on the tile, or the dashed mainland.'],
  trip: ['Boatsman trips (large scoring)', ''],
  target: ['Where does the travelling Viking land?', 'Click a dashed tile on your board.'],
  auction: ['Auction for start player', ''],
  remove: ['Remove one drawn Viking', ''],
  offer: ['Put one colour of Vikings on the wheel', ''],
  special: ['Special tiles', 'Click a tile of the display on the left, or a button below.'],
  building: ['Place your building', 'Click a dashed tile on your board.'],
};
const $ = (id) => document.getElementById(id);
let gameId = null;
let view = null;
let polling = null;

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (method !== 'GET') {
    // The server takes a change only as JSON, which no form of another site can send (undo
    // and hint send {}).
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body === undefined ? {} : body);
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || ('HTTP ' + response.status));
  return data;
}

function message(text) {
  $('message').textContent = text || '';
  $('message').hidden = !text;
}

function setState(name) { document.body.dataset.state = name; }

// --- the new-game form ----------------------------------------------------------------------

function fillSetup() {
  const players = Number($('players').value);
  const seat = $('seat');
  const chosen = Math.min(Number(seat.value || 0), players - 1);
  seat.innerHTML = '';
  for (let p = 0; p < players; p++) seat.add(new Option('seat ' + p, p, false, p === chosen));
  const fields = $('bot-fields');
  const old = [...fields.querySelectorAll('input')].map((i) => i.value);
  fields.innerHTML = '';
  let k = 0;
  for (let p = 0; p < players; p++) {
    if (p === chosen) continue;
    const label = document.createElement('label');
    label.textContent = 'Bot in seat ' + p + ' ';
    const input = document.createElement('input');
    input.className = 'bot-spec';
    input.value = old[k] || 'greedy';
    input.setAttribute('aria-label', 'bot in seat ' + p);
    label.appendChild(input);
    fields.appendChild(label);
    k++;
  }
}

async function showSetup() {
  stopPolling();
  gameId = null;
  $('play').hidden = true;
  $('setup').hidden = false;
  ['undo', 'hint'].forEach((id) => { $(id).disabled = true; });
  $('download').classList.add('disabled');
  $('thinking').hidden = true;
  fillSetup();
  setState('setup');
  try {
    const {games, refused} = await api('GET', '/api/games');
    const box = $('stored');
    box.innerHTML = games.length ? '<h3>Continue a stored game</h3>' : '';
    const list = document.createElement('ul');
    for (const g of games) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = '#game=' + g.id;
      a.textContent = g.num_players + ' players against ' + g.bots.join(', ') +
        (g.options.length ? ' (' + g.options.join(', ') + ')' : '') + ', ' + g.moves + ' moves';
      li.appendChild(a);
      list.appendChild(li);
    }
    box.appendChild(list);
    for (const r of refused) {              // stored files the server does not load
      const p = document.createElement('p');
      p.className = 'refused';
      p.textContent = 'Not loaded: ' + r.error;
      box.appendChild(p);
    }
  } catch (error) { message(error.message); }
}

async function startGame(event) {
  event.preventDefault();
  const form = $('setup-form');
  const options = {};
  for (const box of form.querySelectorAll('fieldset input[type=checkbox]')) options[box.name] = box.checked;
  const body = {players: Number($('players').value), seat: Number($('seat').value),
                seed: Number($('seed').value || 0), options,
                bots: [...document.querySelectorAll('.bot-spec')].map((i) => i.value.trim())};
  try {
    const data = await api('POST', '/api/games', body);
    message('');
    location.hash = 'game=' + data.id;      // route() shows it
  } catch (error) { message(error.message); $('setup').prepend($('message')); }
}

// --- the game -------------------------------------------------------------------------------

function stopPolling() { if (polling) { clearTimeout(polling); polling = null; } }

async function loadGame(id) {
  stopPolling();
  gameId = id;
  $('setup').hidden = true;
  $('play').hidden = false;
  $('play').prepend($('message'));
  $('download').href = '/api/games/' + id + '/record';
  $('download').classList.remove('disabled');
  try {
    render(await api('GET', '/api/games/' + id));
  } catch (error) {
    message(error.message + ' - start a new game with "New game".');
    setState('error');
  }
}

function render(data) {
  if (data.id !== gameId) return;           // an answer for a game this tab left
  view = data;
  $('sentence').textContent = data.sentence;
  const body = $('scores').querySelector('tbody');
  body.innerHTML = '';
  for (const p of data.players) {
    const tr = document.createElement('tr');
    if (p.winner) tr.className = 'winner';
    for (const text of ['player ' + p.seat + ' (' + p.name + ')' + (p.winner ? ' - winner' : ''),
                        p.fame, p.gold]) {
      const td = document.createElement('td');
      td.textContent = text;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $('board').innerHTML = data.svg;
  $('explain').textContent = data.your_turn ? 'Point at a dashed outline or a button to read ' +
    'what it does; click it to play it.' : data.terminal ? 'The game is over.' :
    'The other players are moving.';
  wireBoard(data);
  showChoices(data);
  const moves = $('last-moves');
  moves.innerHTML = '';
  for (const m of data.last_moves) {
    const li = document.createElement('li');
    li.textContent = 'player ' + m.player + ': ' + m.explain + ' ';
    const code = document.createElement('code');
    code.textContent = m.string;
    li.appendChild(code);
    moves.appendChild(li);
  }
  if (!data.last_moves.length) moves.innerHTML = '<li>none since your last move</li>';
  $('undo').disabled = !data.can_undo;
  $('hint').disabled = !data.your_turn;
  $('thinking').hidden = !data.thinking;
  if (data.error) message(data.error);
  document.body.dataset.moves = data.moves;
  setState(data.terminal ? 'over' : data.thinking ? 'thinking' : data.your_turn ? 'your-turn' : 'waiting');
  if (data.thinking || (!data.your_turn && !data.terminal && !data.error)) {
    polling = setTimeout(() => poll(data.id), 250);
  }
}

async function poll(id) {
  polling = null;
  if (id !== gameId) return;
  try { render(await api('GET', '/api/games/' + id)); } catch (error) { message(error.message); }
}

function explainOf(action) {
  const choice = view && view.choices.find((c) => c.string === action);
  return choice ? choice.explain : '';
}

function showExplain(action) {
  const text = explainOf(action);
  if (text) $('explain').textContent = text + '  (' + action + ')';
}

function wireBoard(data) {
  const legal = new Set(data.choices.map((c) => c.string));
  // The display's special tiles become click targets when taking one is legal (A5).
  for (const chip of $('board').querySelectorAll('.special[data-slot]')) {
    const action = 'special:take:' + chip.dataset.slot;
    if (legal.has(action)) chip.setAttribute('data-action', action);
  }
  // A buyable group lets the clicks through to the dashed circle under it (B5).
  for (const group of $('board').querySelectorAll('.group[data-space]')) {
    if (legal.has('buy:' + group.dataset.space)) group.style.pointerEvents = 'none';
  }
  for (const node of $('board').querySelectorAll('[data-action]')) {
    const action = node.getAttribute('data-action');
    if (!legal.has(action)) continue;
    node.addEventListener('mouseenter', () => showExplain(action));
    node.addEventListener('click', () => play(action));
  }
}

function choiceButton(choice) {
  const button = document.createElement('button');
  button.className = 'choice';
  button.dataset.action = choice.string;
  button.textContent = choice.explain;
  const code = document.createElement('code');
  code.textContent = choice.string;
  button.appendChild(code);
  button.addEventListener('mouseenter', () => showExplain(choice.string));
  button.addEventListener('focus', () => showExplain(choice.string));
  button.addEventListener('click', () => play(choice.string));
  return button;
}

function showChoices(data) {
  const box = $('choices');
  box.innerHTML = '';
  $('hint-text').hidden = true;
  if (data.terminal) {
    box.innerHTML = '<h3>The game is over</h3><p>Download the record, undo, or start a new game.</p>';
    return;
  }
  if (!data.your_turn) {
    box.innerHTML = '<h3>Waiting for the other players</h3>';
    return;
  }
  const groups = new Map();
  for (const c of data.choices) {
    if (!groups.has(c.kind)) groups.set(c.kind, []);
    groups.get(c.kind).push(c);
  }
  for (const [kind, choices] of groups) {
    const [title, where] = HEADINGS[kind] || [kind, ''];
    const h = document.createElement('h3');
    h.textContent = title;
    box.appendChild(h);
    if (where) {
      const p = document.createElement('p');
      p.className = 'where';
      p.textContent = where;
      box.appendChild(p);
    }
    const bids = choices.filter((c) => c.string.startsWith('auction:bid:'));
    for (const c of choices) if (bids.length <= 8 || !bids.includes(c)) box.appendChild(choiceButton(c));
    if (bids.length > 8) box.appendChild(bidForm(bids));
  }
}

function bidForm(bids) {
  // Hundreds of bids are legal; one field takes any of them (only legal values are sent).
  const amounts = bids.map((c) => Number(c.string.split(':')[2]));
  const form = document.createElement('form');
  form.id = 'bid-form';
  const input = document.createElement('input');
  input.type = 'number';
  input.min = Math.min(...amounts);
  input.max = Math.max(...amounts);
  input.value = input.min;
  input.setAttribute('aria-label', 'your bid');
  const button = document.createElement('button');
  button.textContent = 'Bid';
  const words = document.createElement('p');
  words.className = 'where';
  words.textContent = 'The highest bidder pays the bid (gold, then Fame) and becomes start ' +
    'player, who buys first (A1).';
  form.append(words, 'Bid ' + input.min + ' to ' + input.max + ': ', input, ' ', button);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const action = 'auction:bid:' + Number(input.value);
    if (bids.some((c) => c.string === action)) play(action);
    else message('bid between ' + input.min + ' and ' + input.max);
  });
  return form;
}

async function play(action) {
  if (!view || !view.your_turn) return;
  const id = gameId;
  view.your_turn = false;                    // one click, one move
  try {
    message('');
    render(await api('POST', '/api/games/' + id + '/move', {action}));
  } catch (error) {
    message(error.message);
    loadGame(id);
  }
}

async function undo() {
  try { message(''); render(await api('POST', '/api/games/' + gameId + '/undo')); }
  catch (error) { message(error.message); }
}

async function hint() {
  const box = $('hint-text');
  box.hidden = false;
  box.textContent = 'searching...';
  try {
    const h = await api('POST', '/api/games/' + gameId + '/hint');
    box.textContent = 'Hint (MCTS, ' + h.iterations + ' iterations, ' +
      Math.round(h.share * 100) + '% of the visits): ' + h.explain + ' (' + h.string + ')';
    for (const b of document.querySelectorAll('button.choice')) {
      b.style.outline = b.dataset.action === h.string ? '3px solid #178a3e' : '';
    }
  } catch (error) { box.textContent = error.message; }
}

function route() {
  const match = /game=([0-9a-f]+)/.exec(location.hash);
  if (match) loadGame(match[1]); else showSetup();
}

$('players').addEventListener('change', fillSetup);
$('seat').addEventListener('change', fillSetup);
$('setup-form').addEventListener('submit', startGame);
$('new-game').addEventListener('click', () => {
  if (location.hash) location.hash = ''; else showSetup();
});
$('undo').addEventListener('click', undo);
$('hint').addEventListener('click', hint);
window.addEventListener('hashchange', route);
route();
