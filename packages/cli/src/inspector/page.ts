/** The inspector page: a static shell the script (dist/web/app.js) fills from the JSON API. No inline script or style (the CSP forbids them). */
export function inspectorPage(config: { token: string; allowRun: boolean }): string {
  const attribute = escapeHtml(JSON.stringify(config));
  const token = encodeURIComponent(config.token);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="toolwright-inspector" content="${attribute}">
<title>toolwright inspector</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="assets/style.css?token=${token}">
<script defer src="assets/app.js?token=${token}"></script>
</head>
<body>
<header class="top">
  <div class="brand"><span class="logo">tw</span> toolwright <span class="muted">inspector</span></div>
  <nav class="tabs" role="tablist">
    <button role="tab" data-view="tools" aria-selected="true">Tools</button>
    <button role="tab" data-view="playground">Playground</button>
    <button role="tab" data-view="stats">Statistics</button>
  </nav>
  <div class="status" id="status"></div>
</header>
<main>
  <section id="view-tools" class="view"><aside id="tool-list" class="tool-list"></aside><div id="tool-detail" class="tool-detail"></div></section>
  <section id="view-playground" class="view" hidden></section>
  <section id="view-stats" class="view" hidden></section>
</main>
<dialog id="confirm-run">
  <form method="dialog">
    <h3>Run the handler?</h3>
    <p id="confirm-text"></p>
    <div class="actions"><button value="cancel" class="secondary">Cancel</button><button value="run" class="danger" id="confirm-run-button">Run handler</button></div>
  </form>
</dialog>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/'/g, '&#39;');
}

export const INSPECTOR_STYLES = `
:root {
  --bg: #f6f7f9; --panel: #ffffff; --text: #1d2430; --muted: #6b7585; --line: #e2e6ec; --accent: #3b5bdb;
  --accent-soft: #e8edff; --ok: #2b8a3e; --ok-soft: #e6f6ea; --bad: #c92a2a; --bad-soft: #fdecec; --warn: #b36b00; --warn-soft: #fff4e0;
  --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: var(--text); background: var(--bg); }
[hidden] { display: none !important; }
.top { display: flex; align-items: center; gap: 24px; padding: 10px 20px; background: #151b26; color: #e9edf3; position: sticky; top: 0; z-index: 2; }
.brand { font-weight: 600; font-size: 15px; display: flex; align-items: center; gap: 8px; }
.brand .muted { color: #9aa5b5; font-weight: 400; }
.logo { display: inline-grid; place-items: center; width: 26px; height: 26px; border-radius: 6px; background: var(--accent); color: white; font-size: 12px; }
.tabs { display: flex; gap: 4px; }
.tabs button { background: transparent; border: 0; color: #b9c2cf; padding: 6px 12px; border-radius: 6px; font: inherit; cursor: pointer; }
.tabs button[aria-selected="true"] { background: #2a3446; color: white; }
.status { margin-left: auto; color: #9aa5b5; font-size: 12px; display: flex; gap: 10px; align-items: center; }
.pill { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 12px; background: var(--accent-soft); color: var(--accent); white-space: nowrap; }
.pill.ok { background: var(--ok-soft); color: var(--ok); } .pill.bad { background: var(--bad-soft); color: var(--bad); } .pill.warn { background: var(--warn-soft); color: var(--warn); }
.pill.muted { background: #eef0f3; color: var(--muted); }
main { padding: 18px 20px 40px; }
.view { display: block; }
#view-tools { display: grid; grid-template-columns: 260px minmax(0, 1fr); gap: 18px; align-items: start; }
.tool-list { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; position: sticky; top: 64px; }
.tool-list h4 { margin: 0; padding: 10px 14px; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); border-bottom: 1px solid var(--line); }
.tool-list button { display: block; width: 100%; text-align: left; border: 0; border-bottom: 1px solid var(--line); background: none; padding: 10px 14px; font: inherit; cursor: pointer; }
.tool-list button:last-child { border-bottom: 0; }
.tool-list button:hover { background: #f3f5f8; }
.tool-list button[aria-current="true"] { background: var(--accent-soft); box-shadow: inset 3px 0 0 var(--accent); }
.tool-list .name { font-family: var(--mono); font-size: 13px; font-weight: 600; }
.tool-list .meta { display: flex; gap: 4px; margin-top: 4px; flex-wrap: wrap; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 16px 18px; margin-bottom: 16px; }
.card h2 { margin: 0 0 4px; font-family: var(--mono); font-size: 18px; }
.card h3 { margin: 0 0 10px; font-size: 14px; }
.card .lead { color: var(--muted); margin: 0 0 10px; }
.subtabs { display: flex; gap: 2px; border-bottom: 1px solid var(--line); margin-bottom: 14px; }
.subtabs button { border: 0; background: none; padding: 8px 12px; font: inherit; color: var(--muted); cursor: pointer; border-bottom: 2px solid transparent; margin-bottom: -1px; }
.subtabs button[aria-selected="true"] { color: var(--text); border-bottom-color: var(--accent); font-weight: 600; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
code, pre, .mono { font-family: var(--mono); font-size: 12.5px; }
pre { background: #f3f5f8; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; overflow: auto; margin: 0; max-height: 420px; white-space: pre-wrap; word-break: break-word; }
.finding { display: grid; grid-template-columns: 70px 150px minmax(0, 1fr); gap: 8px; padding: 6px 0; border-bottom: 1px solid var(--line); }
.finding:last-child { border-bottom: 0; }
.finding .pill { align-self: start; justify-self: start; }
.finding .fix { color: var(--muted); font-size: 12.5px; }
.provider-row { display: grid; grid-template-columns: 190px minmax(0, 1fr); gap: 14px; }
.provider-picker { display: flex; flex-direction: column; gap: 2px; }
.provider-picker button { text-align: left; border: 1px solid transparent; background: none; padding: 6px 10px; border-radius: 6px; font: inherit; cursor: pointer; }
.provider-picker button[aria-selected="true"] { background: var(--accent-soft); border-color: #cdd7ff; }
.provider-picker small { display: block; color: var(--muted); font-family: var(--mono); }
form.tool-form { display: grid; gap: 12px; }
.field { display: grid; grid-template-columns: 200px minmax(0, 1fr); gap: 12px; align-items: start; }
.field > label { padding-top: 6px; }
.field > label .key { font-family: var(--mono); font-weight: 600; }
.field > label .type { display: block; color: var(--muted); font-size: 12px; }
.field > label .required { color: var(--bad); margin-left: 2px; }
.field .help { color: var(--muted); font-size: 12px; margin-top: 3px; }
input, select, textarea { font: inherit; border: 1px solid #cfd6df; border-radius: 6px; padding: 6px 8px; background: white; color: var(--text); }
input:focus, select:focus, textarea:focus { outline: 2px solid #b9c8ff; border-color: var(--accent); }
textarea { width: 100%; font-family: var(--mono); font-size: 12.5px; min-height: 80px; }
input[type="text"], input[type="number"] { width: 100%; max-width: 420px; }
.datetime { display: flex; gap: 6px; align-items: center; } .datetime .offset { width: 90px; }
.array-items { display: grid; gap: 6px; }
.array-item { display: flex; gap: 6px; align-items: start; }
.array-item > .control { flex: 1; }
fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 0; display: grid; gap: 10px; }
fieldset legend { font-size: 12px; color: var(--muted); padding: 0 4px; }
fieldset.context { background: #fbfaf4; border-color: #eadfb8; }
button { font: inherit; }
.button, .actions button, button.primary, button.secondary, button.danger, button.small { border: 1px solid transparent; border-radius: 6px; padding: 7px 14px; cursor: pointer; font-weight: 600; }
button.primary { background: var(--accent); color: white; }
button.secondary { background: white; border-color: #cfd6df; color: var(--text); }
button.danger { background: var(--bad); color: white; }
button.small { padding: 3px 9px; font-weight: 500; font-size: 12.5px; background: white; border-color: #cfd6df; }
button:disabled { opacity: .5; cursor: not-allowed; }
.actions { display: flex; gap: 8px; align-items: center; }
.hint { color: var(--muted); font-size: 12.5px; }
.result { margin-top: 14px; display: grid; gap: 12px; }
.outcome { display: flex; align-items: center; gap: 10px; font-weight: 600; }
.outcome.ok { color: var(--ok); } .outcome.bad { color: var(--bad); }
.two-columns { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 14px; }
.original { white-space: pre-wrap; word-break: break-word; line-height: 1.7; }
mark { background: #ffe8a3; border-radius: 3px; padding: 1px 0; box-shadow: 0 0 0 1px #f0c94a; }
mark sup, .badge-index { display: inline-grid; place-items: center; min-width: 16px; height: 16px; border-radius: 8px; background: var(--warn); color: white; font: 600 10px/1 system-ui, sans-serif; margin-left: 2px; padding: 0 4px; vertical-align: super; }
mark.security { background: #ffd6d6; box-shadow: 0 0 0 1px #e89b9b; }
mark.security sup { background: var(--bad); }
ol.transformations { margin: 0; padding: 0; list-style: none; display: grid; gap: 6px; }
ol.transformations li { display: grid; grid-template-columns: 26px 200px 200px minmax(0, 1fr); gap: 8px; align-items: baseline; padding: 6px 8px; border-radius: 6px; background: #fafbfc; border: 1px solid var(--line); }
ol.transformations li .rule { font-family: var(--mono); font-weight: 600; color: var(--warn); }
ol.transformations li.security .rule { color: var(--bad); }
ol.transformations li .path { font-family: var(--mono); }
ol.transformations li .change { font-family: var(--mono); font-size: 12px; color: var(--muted); word-break: break-word; }
.playground-input { display: grid; gap: 10px; }
.playground-input textarea { min-height: 150px; }
.controls { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
.controls label { display: flex; gap: 6px; align-items: center; color: var(--muted); font-size: 12.5px; }
.samples { display: flex; gap: 6px; flex-wrap: wrap; align-items: center; }
.samples .pill { margin-left: 6px; }
table.parameters tr[data-depth="1"] td.name { padding-left: 26px; }
table.parameters tr[data-depth="2"] td.name { padding-left: 44px; }
table.parameters tr[data-depth="3"] td.name { padding-left: 62px; }
table.parameters tr[data-depth="4"] td.name { padding-left: 80px; }
table.parameters tr:not([data-depth="0"]) td { background: #fafbfc; }
.stats-grid { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 12px; margin-bottom: 16px; }
.metric { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; }
.metric .value { font-size: 26px; font-weight: 700; }
.metric .label { color: var(--muted); font-size: 12px; }
.metric.bad .value { color: var(--bad); }
.bar { height: 8px; background: var(--accent); border-radius: 4px; min-width: 4px; }
.empty { color: var(--muted); font-style: italic; padding: 6px 0; }
.error-box { background: var(--bad-soft); border: 1px solid #f1b9b9; color: #7d1a1a; border-radius: 8px; padding: 10px 12px; white-space: pre-wrap; }
dialog { border: 1px solid var(--line); border-radius: 12px; padding: 18px 20px; max-width: 460px; box-shadow: 0 20px 50px rgba(0,0,0,.25); }
dialog::backdrop { background: rgba(15, 20, 30, .45); }
dialog h3 { margin: 0 0 8px; }
td.time { font-family: var(--mono); width: 80px; white-space: nowrap; }
.live { display: inline-block; width: 8px; height: 8px; border-radius: 4px; background: #40c057; margin-right: 4px; }
details.more { margin-top: 6px; } details.more summary { cursor: pointer; color: var(--muted); font-size: 12.5px; padding: 4px 0; }
.report h3 { margin: 4px 0 8px; }
#playground-result { margin-top: 0; } .result > p { margin: 0; }
`;
