"""The game viewer: one self-contained HTML file for a game record (docs/pictures.md).

The file needs no network: the board of every step is an inline SVG (svg.py), the SVGs of the
whole game travel gzip-compressed in base64 (a game's SVG texts are ~15 MB, compressed ~1.5 MB)
and the page unpacks them with the browser's own DecompressionStream. Next / previous buttons,
a slider, play / pause (Space), the keys Left / Right / Home / End / PageUp / PageDown, a move
list to click, and charts of Fame and gold over time whose cursor follows the step (click a
chart to jump). The address may name the first step shown: `viewer.html#step=120`.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from types import ModuleType
from typing import Any, Iterable, Sequence

from vikinger_ref.svg import state_svg
from vikinger_ref.svg_board import board_columns
from vikinger_ref.svg_pieces import PLAYER_ACCENT

from .. import records
from ..narration import Narrator, format_scoring
from ..safety import outputs
from .legend import legend_html

CHART_W, CHART_H, CHART_PAD = 600, 150, 34


def game_columns(states: Iterable[Any]) -> int:
    """The widest board of a game plus one free column (at least 8), so that every picture
    of the game has one size."""
    return max(
        8,
        max(board_columns(player) + 1 for state in states for player in state.to_dict()["players"]),
    )


def _polyline(values: Sequence[float], lo: float, hi: float, width: float, height: float) -> str:
    span = max(hi - lo, 1)
    step = width / max(len(values) - 1, 1)
    return " ".join(
        f"{CHART_PAD + i * step:.1f},{8 + (hi - v) / span * (height - 16):.1f}"
        for i, v in enumerate(values)
    )


def chart_svg(series: Sequence[Sequence[float]], label: str, steps: int) -> str:
    """A line per player over the steps; `series[p]` holds one value per step. The line with
    id `cursor-<label>` marks the step shown (moved by the page's script)."""
    lo = min(min(values) for values in series)
    hi = max(max(values) for values in series)
    width = CHART_W - CHART_PAD - 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" data-label="{label}" '
        f'width="{CHART_W}" height="{CHART_H}" viewBox="0 0 {CHART_W} {CHART_H}" '
        f'data-steps="{steps}" data-left="{CHART_PAD}" data-width="{width}">',
        f'<rect x="{CHART_PAD}" y="8" width="{width}" height="{CHART_H - 16}" '
        f'fill="#fbfaf6" stroke="#ccc"/>',
        f'<text x="{CHART_PAD - 4}" y="18" font-size="13" fill="#333" '
        f'text-anchor="end">{hi}</text>',
        f'<text x="{CHART_PAD - 4}" y="{CHART_H - 8}" font-size="13" fill="#333" '
        f'text-anchor="end">{lo}</text>',
        f'<text x="{CHART_PAD + 8}" y="26" font-size="15" font-weight="bold" '
        f'fill="#333">{label} of each player, by step (click to jump)</text>',
    ]
    for p, values in enumerate(series):
        parts.append(
            f'<polyline fill="none" stroke="{PLAYER_ACCENT[p]}" stroke-width="2" '
            f'points="{_polyline(values, lo, hi, width, CHART_H)}"/>'
        )
    parts.append(
        f'<line id="cursor-{label}" x1="{CHART_PAD}" x2="{CHART_PAD}" y1="8" '
        f'y2="{CHART_H - 8}" stroke="#e0352b" stroke-width="1.5"/></svg>'
    )
    return "".join(parts)


def _player_name(entry: dict[str, Any]) -> str:
    params = ",".join(f"{k}={v}" for k, v in entry["params"].items())
    return html.escape(entry["name"] + (f":{params}" if params else ""))


def script_json(value: object) -> str:
    """`value` as JSON that stays inside its `<script type="application/json">` element whatever
    its strings hold (a player's name is free text): `<`, `>` and `&` are written as \\u003c,
    \\u003e, \\u0026, so no `</script>`, `<!--` or `<script` can end the element or put the
    HTML parser in another state, and U+2028, U+2029 as \\u2028, \\u2029 (ensure_ascii writes
    every non-ASCII character so). JSON.parse of the element's text gives `value` back."""
    text = json.dumps(value, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def viewer_html(record: dict[str, Any], engine: ModuleType, title: str | None = None) -> str:
    """The HTML text of the viewer for `record`, replayed (and so checked) in `engine`."""
    states = list(records.states(record, engine))
    columns = game_columns(states)
    svgs = [state_svg(state, min_columns=columns) for state in states]
    packed = base64.b64encode(gzip.compress(json.dumps(svgs).encode("utf-8"), 9)).decode("ascii")
    n = record["game"]["num_players"]
    fame = [[int(state.scores()[p]) for state in states] for p in range(n)]
    gold = [[int(state.gold()[p]) for state in states] for p in range(n)]
    moves = [{"s": m["string"], "p": m["player"]} for m in record["moves"]]
    # What each move set off besides itself: forced decisions and scorings with their breakdown.
    narrator = Narrator(states[0])
    names = [f"player {p} ({entry['name']})" for p, entry in enumerate(record["players"])]
    for move, played in zip(moves, record["moves"]):
        move["n"] = [
            format_scoring(event, names)
            if event["kind"] == "scoring"
            else f"{names[event['player']]}: (forced) {event['string']}"
            for event in narrator.step(played["action"])
            if event["kind"] in ("scoring", "forced")
        ]
    # The page opens on the first decision: before it, only chance has moved (an empty board).
    first = next((k for k, m in enumerate(record["moves"]) if m["player"] >= 0), 0)
    data = script_json({"svgs": packed, "moves": moves, "fame": fame, "gold": gold, "first": first})
    options = ", ".join(k for k, on in record["game"]["options"].items() if on) or "base game"
    legend = "".join(
        f'<span class="who" style="color:{PLAYER_ACCENT[p]}">&#9632; player {p}: '
        f"{_player_name(entry)}</span>"
        for p, entry in enumerate(record["players"])
    )
    result = record["result"]
    summary = " | ".join(
        f"player {p}: Fame {result['fame'][p]}, gold {result['gold'][p]}"
        + (f", return {result['returns'][p]:g}" if result["terminal"] else "")
        for p in range(n)
    )
    seed = "" if record["seed"] is None else f", seed {record['seed']}"
    title = html.escape(title or f"Wikinger: {n} players, {options}{seed}")
    return PAGE.format(
        title=title,
        legend=legend,
        steps=len(svgs) - 1,
        summary=html.escape(("final: " if result["terminal"] else "at the end: ") + summary),
        fame_chart=chart_svg(fame, "Fame", len(svgs) - 1),
        gold_chart=chart_svg(gold, "gold", len(svgs) - 1),
        data=data,
        script=SCRIPT,
        style=STYLE,
        marks=legend_html(),
    )


def write_viewer(
    record: dict[str, Any], engine: ModuleType, path: str, title: str | None = None
) -> int:
    text = viewer_html(record, engine, title=title)
    outputs.write_atomic(path, text)  # the old file or the new one, never half
    return len(text)


STYLE = """
body { font-family: DejaVu Sans, Helvetica, Arial, sans-serif; margin: 0; background: #f3efe6;
       color: #222; }
header { background: #2e3d49; color: #fff; padding: 10px 16px; }
header h1 { font-size: 18px; margin: 0 0 4px 0; }
.who { margin-right: 10px; font-size: 13px; font-weight: bold; background: #fbfaf6;
       padding: 1px 8px; border-radius: 4px; }
#controls { display: flex; align-items: center; gap: 8px; padding: 10px 16px; }
#controls button { font-size: 16px; min-width: 38px; padding: 4px 8px; border: 1px solid #8a744a;
                   background: #fbfaf6; border-radius: 6px; cursor: pointer; }
#slider { flex: 1; max-width: 640px; }
#counter { font-weight: bold; min-width: 120px; }
#move { color: #555; font-family: DejaVu Sans Mono, monospace; }
main { display: flex; gap: 12px; padding: 0 16px; align-items: flex-start; }
#board svg { display: block; max-width: 100%; height: auto; }
aside { width: 290px; flex: none; }
#moves { position: relative; height: 560px; overflow-y: auto; margin: 0;
         padding: 4px 4px 4px 46px; background: #fbfaf6; border: 1px solid #ccc;
         border-radius: 6px; font: 12px DejaVu Sans Mono, monospace; }
#moves li { cursor: pointer; padding: 1px 4px; }
#moves li.chance { color: #888; }
#moves li.current { background: #ffd866; }
#moves li.scoring { font-weight: bold; }
#narration { font-size: 11px; white-space: pre-wrap; max-height: 300px; overflow-y: auto;
             margin: 6px 0; }
#charts { padding: 8px 16px; display: flex; flex-wrap: wrap; gap: 12px; }
footer { padding: 4px 16px 16px; color: #444; font-size: 13px; }
#legend-box { padding: 0 16px 16px; }
#legend-box summary { cursor: pointer; font-weight: bold; }
.legend { columns: 2; list-style: none; padding: 0; font-size: 14px; max-width: 1200px; }
.legend li { margin: 3px 0; break-inside: avoid; }
.legend .sample { display: inline-block; width: 28px; vertical-align: middle; }
.notation { font-size: 14px; }
"""

SCRIPT = """
(async function () {
  const data = JSON.parse(document.getElementById('game-data').textContent);
  const board = document.getElementById('board');
  if (typeof DecompressionStream === 'undefined') {
    board.textContent = 'This browser cannot unpack the boards (no DecompressionStream).';
    return;
  }
  const packed = Uint8Array.from(atob(data.svgs), c => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  const svgs = JSON.parse(await new Response(stream).text());
  const last = svgs.length - 1;
  const slider = document.getElementById('slider');
  const counter = document.getElementById('counter');
  const moveText = document.getElementById('move');
  const list = document.getElementById('moves');
  const narration = document.getElementById('narration');
  data.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = (m.p < 0 ? 'chance ' : 'P' + m.p + ' ') + m.s;
    li.className = (m.p < 0 ? 'chance' : 'decision') +
      (m.n.some((line) => line.startsWith('Round')) ? ' scoring' : '');
    if (m.n.length) li.title = m.n.join('\\n');
    li.addEventListener('click', () => show(i + 1));
    list.appendChild(li);
  });
  let step = 0;
  function show(k) {
    step = Math.max(0, Math.min(last, k));
    board.innerHTML = svgs[step];
    slider.value = step;
    counter.textContent = 'step ' + step + ' / ' + last;
    const m = data.moves[step - 1];
    moveText.textContent = m ? 'after ' + (m.p < 0 ? 'chance ' : 'player ' + m.p + ': ') + m.s
                             : 'start of the game';
    narration.textContent = m && m.n.length ? m.n.join('\\n') : '';
    for (const li of list.querySelectorAll('li.current')) li.classList.remove('current');
    if (step > 0) {
      const li = list.children[step - 1];
      li.classList.add('current');
      // Scroll the list alone (scrollIntoView would scroll the page too).
      if (li.offsetTop < list.scrollTop) list.scrollTop = li.offsetTop;
      else if (li.offsetTop + li.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = li.offsetTop + li.offsetHeight - list.clientHeight;
    }
    for (const chart of document.querySelectorAll('svg.chart')) {
      const x = Number(chart.dataset.left) + Number(chart.dataset.width) * step / Math.max(last, 1);
      const cursor = chart.querySelector('line[id^=cursor]');
      cursor.setAttribute('x1', x); cursor.setAttribute('x2', x);
    }
    document.getElementById('values').textContent = data.fame.map((f, p) =>
      'player ' + p + ': Fame ' + f[step] + ', gold ' + data.gold[p][step]).join('  |  ');
  }
  slider.max = last;
  slider.addEventListener('input', () => show(Number(slider.value)));
  document.getElementById('first').addEventListener('click', () => show(0));
  document.getElementById('prev').addEventListener('click', () => show(step - 1));
  document.getElementById('next').addEventListener('click', () => show(step + 1));
  document.getElementById('last').addEventListener('click', () => show(last));
  const play = document.getElementById('play');
  let timer = null;
  function toggle() {
    if (timer !== null) { clearInterval(timer); timer = null; play.textContent = 'play'; return; }
    if (step === last) show(0);
    play.textContent = 'pause';
    timer = setInterval(() => { show(step + 1); if (step === last) toggle(); }, 350);
  }
  play.addEventListener('click', toggle);
  for (const chart of document.querySelectorAll('svg.chart')) {
    chart.addEventListener('click', (e) => {
      const box = chart.getBoundingClientRect();
      const x = (e.clientX - box.left) * chart.viewBox.baseVal.width / box.width;
      show(Math.round((x - Number(chart.dataset.left)) / Number(chart.dataset.width) * last));
    });
  }
  document.addEventListener('keydown', (e) => {
    const keys = {ArrowRight: step + 1, ArrowLeft: step - 1, Home: 0, End: last,
                  PageDown: step + 10, PageUp: step - 10};
    if (e.key in keys && e.target !== slider) { e.preventDefault(); show(keys[e.key]); }
    if (e.key === ' ' && e.target.tagName !== 'BUTTON') { e.preventDefault(); toggle(); }
  });
  const asked = /step=(\\d+)/.exec(location.hash);
  show(asked ? Number(asked[1]) : data.first);
  document.body.dataset.ready = 'true';
})();
"""

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>{style}</style></head>
<body>
<header><h1>{title}</h1>{legend}</header>
<div id="controls">
<button id="first" title="first step (Home)">|&#9664;</button>
<button id="prev" title="previous step (Left)">&#9664;</button>
<input id="slider" type="range" min="0" max="{steps}" value="0" aria-label="step">
<button id="next" title="next step (Right)">&#9654;</button>
<button id="last" title="last step (End)">&#9654;|</button>
<button id="play" title="play / pause (Space)">play</button>
<span id="counter">loading...</span><span id="move"></span>
</div>
<main><div id="board"></div><aside><ol id="moves"></ol>
<pre id="narration" title="what this step set off: forced decisions, scorings by rule id"></pre>
</aside></main>
<div id="charts">{fame_chart}{gold_chart}</div>
<footer><div id="values"></div><div>{summary}</div></footer>
<details id="legend-box" open><summary>Legend: what the marks mean</summary>{marks}</details>
<script id="game-data" type="application/json">{data}</script>
<script>{script}</script>
</body></html>
"""
