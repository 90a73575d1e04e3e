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

// Rule ids (B7.2.3, A5) in a text become links to the rules page, which the app serves.
const RULE_ID = /\b((?:B|A)\d+(?:\.\d+[a-z]?)*)\b/g;

function withRuleLinks(text) {
  const fragment = document.createDocumentFragment();
  let last = 0;
  for (const match of text.matchAll(RULE_ID)) {
    fragment.append(text.slice(last, match.index));
    const a = document.createElement('a');
    a.href = '/rules#' + match[1];
    a.target = '_blank';
    a.className = 'rule';
    a.textContent = match[1];
    fragment.append(a);
    last = match.index + match[0].length;
  }
  fragment.append(text.slice(last));
  return fragment;
}

// The rule ids of the page's fixed text (the legend, "How the game goes") become links too.
function linkRuleIdsIn(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const texts = [];
  while (walker.nextNode()) if (walker.currentNode.parentNode.closest('svg, a') === null) texts.push(walker.currentNode);
  for (const node of texts) {
    RULE_ID.lastIndex = 0;
    if (RULE_ID.test(node.textContent)) node.replaceWith(withRuleLinks(node.textContent));
  }
}

function setText(node, text) {
  node.textContent = '';
  node.append(withRuleLinks(text));
}

function cell(tag, text, attributes) {
  const node = document.createElement(tag);
  node.append(withRuleLinks(String(text)));
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  return node;
}

function signed(n) { return n > 0 ? '+' + n : String(n); }

// What a scoring or a rule changed for a player: "+3 Fame, +6 gold", or "nothing".
function amounts(fame, gold) {
  const parts = [];
  if (fame) parts.push(signed(fame) + ' Fame');
  if (gold) parts.push(signed(gold) + ' gold');
  return parts.length ? parts.join(', ') : 'nothing';
}

// Rule ids in the order of the rules: B1.5 < B5.5 < B7.2.3 < B8.6 < A5 (the modules last).
function compareRules(a, b) {
  const key = (rule) => rule.split('.').map((part, k) => k === 0
    ? [part[0] === 'A' ? 1 : 0, Number(part.slice(1))] : [0, Number(part)]);
  const [x, y] = [key(a), key(b)];
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    if (x[k][0] !== y[k][0]) return x[k][0] - y[k][0];
    if (x[k][1] !== y[k][1]) return x[k][1] - y[k][1];
  }
  return x.length - y.length;
}

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
    input.setAttribute('list', 'bot-specs');
    input.value = old[k] || 'greedy';
    input.setAttribute('aria-label', 'bot in seat ' + p);
    label.appendChild(input);
    fields.appendChild(label);
    k++;
  }
  offerBots();
}

// The suggested specs: `az` and `azpolicy` only at a table a shipped network covers (the
// server's /api/bots "shipped": per player count, the module sets, spelled "none" or the
// modules on joined by "," in the order of the checkboxes).
let shipped = null;
let suggested = null;
function offerBots() {
  const list = $('bot-specs');
  if (suggested === null) suggested = [...list.options].map((o) => o.value);
  const on = [...document.querySelectorAll('#setup-form fieldset input[type=checkbox]')]
    .filter((box) => box.checked).map((box) => box.name);
  const table = on.length ? on.join(',') : 'none';
  const covered = !shipped || (shipped.sets[$('players').value] || []).includes(table);
  list.innerHTML = '';
  for (const value of suggested) {
    if (!covered && shipped.bots.includes(value.split(':')[0])) continue;
    const option = document.createElement('option');
    option.value = value;
    list.appendChild(option);
  }
  list.dataset.learned = covered ? 'offered' : 'not-covered';
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
    if (!shipped) {
      const choices = await api('GET', '/api/bots');
      shipped = {bots: choices.shipped_bots, sets: choices.shipped};
      offerBots();
    }
    const {games, refused} = await api('GET', '/api/games');
    const box = $('stored');
    box.innerHTML = games.length ? '<h3>Continue a stored game</h3>' : '';
    const list = document.createElement('ul');
    for (const g of games) {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = '#game=' + g.id;
      a.textContent = (g.finished ? 'finished: ' : 'unfinished: ') + g.num_players +
        ' players against ' + g.bots.join(', ') +
        (g.options.length ? ' (' + g.options.join(', ') + ')' : '') + ', ' + g.moves + ' moves';
      if (g.finished) li.className = 'finished';
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
  if (id !== gameId) { shownUpTo = -1; opened.clear(); }
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
  setText($('sentence'), data.sentence);
  const body = $('scores').querySelector('tbody');
  body.innerHTML = '';
  for (const p of data.players) {
    const tr = document.createElement('tr');
    if (p.winner) tr.className = 'winner';
    tr.dataset.player = p.seat;
    tr.dataset.fame = p.fame;
    for (const text of ['player ' + p.seat + ' (' + p.name + ')' + (p.winner ? ' - winner' : ''),
                        p.fame, p.gold, p.mainland]) {
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
  showLog(data);
  showBreakdown(data);
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

// --- the log and the scorings -----------------------------------------------------------------

let shownUpTo = -1;  // the log entries the person has seen (newer ones are marked; -1: none yet)
const opened = new Set();  // the scorings of the log whose items the person opened
const FORCED = 'the only legal choice: it was made at once, for whoever was to move (you too)';

function showLog(data) {
  const log = $('log');
  log.innerHTML = '';
  if (shownUpTo < 0 && data.log.length) shownUpTo = data.log[data.log.length - 1].number;
  // The latest scoring since the person's last decision stays pinned at the top of the log
  // until the next one, however many moves follow it.
  const scorings = data.log.filter((e) => e.kind === 'scoring' && e.number > data.last_decision);
  const pinned = scorings.length ? scorings[scorings.length - 1].number : null;
  for (const entry of data.log) {
    const li = document.createElement('li');
    li.className = entry.kind + (entry.number > shownUpTo ? ' new' : '') +
      (entry.number === pinned ? ' pinned' : '');
    li.dataset.number = entry.number;
    if (entry.kind === 'scoring') {
      li.append(scoringDetails(entry));
    } else {
      if (entry.kind === 'forced') li.append(cell('span', 'forced', {class: 'badge', title: FORCED}), ' ');
      li.append(withRuleLinks(entry.text + ' '));
      const code = document.createElement('code');
      code.textContent = entry.string;
      li.append(code);
    }
    log.append(li);
  }
  if (!data.log.length) log.innerHTML = '<li>nothing yet</li>';
  if (data.log.length) shownUpTo = data.log[data.log.length - 1].number;
  $('forced-note').hidden = !data.log.some((e) => e.kind === 'forced');
  $('log-box').scrollTop = $('log-box').scrollHeight;
}

function scoringSummary(event) {
  // "Round 1: small scoring (B7.1): you: +6 gold; player 1 (greedy): nothing"
  return event.title + ': ' + event.players.map((p) =>
    p.name + ': ' + amounts(p.fame - p.fame_before, p.gold - p.gold_before)).join('; ');
}

function scoringDetails(event) {
  const details = document.createElement('details');
  details.className = 'scoring';
  // One entry per scoring: a large scoring's later parts replace its earlier entry.
  const numbers = [event.number, ...(event.replaces || [])];
  details.open = numbers.some((n) => opened.has(n));
  details.addEventListener('toggle', () => {
    for (const n of numbers) { if (details.open) opened.add(n); else opened.delete(n); }
  });
  const summary = cell('summary', scoringSummary(event), {title: 'click for the items by rule'});
  details.append(summary, scoringTable(event));
  return details;
}

function scoringTable(event) {
  // One block per scored player: its items (rule, what, Fame, gold), then before -> after.
  const table = document.createElement('table');
  table.className = 'breakdown';
  for (const p of event.players) {
    const block = document.createElement('tbody');
    block.dataset.player = p.player;
    block.dataset.fameBefore = p.fame_before;
    block.dataset.fameAfter = p.fame;
    const head = document.createElement('tr');
    head.append(cell('th', p.name, {colspan: 2}),
                cell('th', 'Fame ' + p.fame_before + ' \u2192 ' + p.fame),
                cell('th', 'gold ' + p.gold_before + ' \u2192 ' + p.gold));
    block.append(head);
    if (!p.items.length) block.append(cell('td', 'nothing scored', {colspan: 4}));
    for (const item of p.items) {
      const tr = document.createElement('tr');
      tr.className = 'item';
      tr.dataset.fame = item.fame;
      tr.append(cell('td', item.rule), cell('td', item.what),
                cell('td', item.fame ? signed(item.fame) : ''),
                cell('td', item.gold ? signed(item.gold) : ''));
      block.append(tr);
    }
    table.append(block);
  }
  return table;
}

function totalsTable(data) {
  // The whole game per player: start Fame, Fame paid, each rule's sum of Fame and gold, in the
  // order of the rules; the last row is the Fame now.
  const table = document.createElement('table');
  table.className = 'totals';
  const head = document.createElement('tr');
  head.append(cell('th', 'Fame and gold from'), ...data.totals.map((t) => cell('th', t.name)));
  table.append(head);
  const rules = [];
  for (const t of data.totals) {
    for (const item of t.items) if (!rules.some((r) => r.rule === item.rule)) rules.push(item);
  }
  rules.sort((a, b) => compareRules(a.rule, b.rule));
  for (const rule of rules) {
    const tr = document.createElement('tr');
    tr.dataset.rule = rule.rule;
    tr.append(cell('td', rule.rule + ' ' + rule.what));
    for (const t of data.totals) {
      const item = t.items.find((i) => i.rule === rule.rule);
      const [fame, gold] = item ? [item.fame, item.gold] : [0, 0];
      const text = gold ? amounts(fame, gold) : fame ? signed(fame) : '';
      tr.append(cell('td', text, {'data-player': t.player, 'data-fame': fame, 'data-gold': gold}));
    }
    table.append(tr);
  }
  const total = document.createElement('tr');
  total.className = 'total';
  total.append(cell('th', 'Fame'), ...data.totals.map((t) =>
    cell('th', t.fame, {'data-player': t.player, 'data-total': t.fame})));
  table.append(total);
  return table;
}

function showBreakdown(data) {
  const totals = $('totals');
  totals.innerHTML = '';
  totals.append(cell('p', data.terminal ? 'The whole game:' : 'The game so far:'), totalsTable(data));
  const list = $('scoring-list');
  list.innerHTML = '';
  for (const event of data.scorings) {
    list.append(cell('h3', event.title), scoringTable(event));
  }
  if (!data.scorings.length) list.append(cell('p', 'No scoring yet: the first is after round 1 (B7.1).'));
}

function explainOf(action) {
  const choice = view && view.choices.find((c) => c.string === action);
  return choice ? choice.explain : '';
}

function showExplain(action) {
  const text = explainOf(action);
  if (text) setText($('explain'), text + '  (' + action + ')');
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
    box.innerHTML = '<h3>The game is over</h3><p>Where every player\'s Fame came from, and the ' +
      'gold the scorings paid (each ' +
      'scoring item by item: the log below, or <a href="#breakdown">all of them</a>):</p>';
    box.append(totalsTable(data));
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
    setText(box, 'Hint (MCTS, ' + h.iterations + ' iterations, ' +
      Math.round(h.share * 100) + '% of the visits): ' + h.explain + ' (' + h.string + ')');
    for (const b of document.querySelectorAll('button.choice')) {
      b.style.outline = b.dataset.action === h.string ? '3px solid #178a3e' : '';
    }
  } catch (error) { box.textContent = error.message; }
}

// "#breakdown" links scroll to the scorings without touching the hash, which names the game.
document.addEventListener('click', (event) => {
  const link = event.target.closest('a[href="#breakdown"]');
  if (!link) return;
  event.preventDefault();
  $('breakdown').scrollIntoView();
});

function route() {
  const match = /game=([0-9a-f]+)/.exec(location.hash);
  if (match) loadGame(match[1]); else showSetup();
}

$('players').addEventListener('change', fillSetup);
$('seat').addEventListener('change', fillSetup);
$('setup-form').querySelector('fieldset').addEventListener('change', offerBots);
$('setup-form').addEventListener('submit', startGame);
$('new-game').addEventListener('click', () => {
  if (location.hash) location.hash = ''; else showSetup();
});
$('undo').addEventListener('click', undo);
$('hint').addEventListener('click', hint);
window.addEventListener('hashchange', route);
linkRuleIdsIn($('legend-box'));
linkRuleIdsIn($('how'));
route();
