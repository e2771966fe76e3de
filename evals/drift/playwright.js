// The Playwright side of the drift eval (evals/drift, issue 30): on each
// scenario's original page it writes the locators a Playwright user or
// codegen would have recorded for the target (getByRole, getByText, a CSS
// path, and codegen's own pick), then on every variant clicks each one
// and says how Playwright behaved. What the click hit is counted at the
// Go server, never here.
//
//   node playwright.js PLAN.json  > RESULT.json
//
// PLAN: {chromium, args, base, playwright, scenarios: [{name, aim, variants}]}
// RESULT: {scenarios: [{name, locators, problems, runs: [{variant, locator, outcome, error}]}]}
'use strict';
const fs = require('fs');

const plan = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const { chromium } = require(plan.playwright);

// target follows the aim's path from the body to the target's handle.
async function target(page, aim) {
  let frame = page.mainFrame();
  let h = await frame.evaluateHandle(() => document.body);
  for (const st of aim.path) {
    if (st.k === 'child') h = await h.evaluateHandle((e, i) => e.children[i], st.i);
    else if (st.k === 'shadow') h = await h.evaluateHandle((e, i) => e.shadowRoot.children[i], st.i);
    else {
      frame = await h.asElement().contentFrame();
      await frame.waitForLoadState();
      h = await frame.evaluateHandle((i) => document.body.children[i], st.i);
    }
  }
  return h.asElement();
}

// cssPath is the CSS a recorder writes for an element: its id when it
// has one, else tag and classes up to the nearest id, with :nth-of-type
// where a tag repeats; a shadow root is crossed with a descendant step.
function cssPath(el) {
  const parts = [];
  let n = el;
  while (n && n.nodeType === 1) {
    if (n.id) { parts.unshift('#' + CSS.escape(n.id)); break; }
    let s = n.localName + [...n.classList].map((c) => '.' + CSS.escape(c)).join('');
    const parent = n.parentNode;
    const same = parent ? [...parent.children].filter((c) => c.localName === n.localName) : [];
    if (same.length > 1) s += ':nth-of-type(' + (same.indexOf(n) + 1) + ')';
    parts.unshift(s);
    if (parent instanceof ShadowRoot) { parts.unshift(' '); n = parent.host; continue; }
    if (!parent || parent === document.body) break;
    parts.unshift(' > ');
    n = parent;
  }
  return parts.join('').replace(/ > {2}/g, ' ').trim();
}

// build makes a locator from its description on a page.
function build(page, d) {
  const root = d.frame ? page.frameLocator(d.frame) : page;
  let l;
  switch (d.kind) {
    case 'role': l = root.getByRole(d.role, { name: d.name }); break;
    case 'text': l = root.getByText(d.text); break;
    case 'css': l = root.locator(d.css); break;
    case 'selector': return page.locator(d.selector);
  }
  if (d.scope) {
    const scope = root.getByRole(d.scope.role).filter({ hasText: d.scope.key });
    l = d.kind === 'role' ? scope.getByRole(d.role, { name: d.name }) : scope.getByText(d.text);
  }
  if (d.nth !== undefined) l = l.nth(d.nth);
  return l;
}

// indexOf is the target's place among a locator's matches, or -1.
async function indexOf(l, el) {
  const all = await l.elementHandles();
  for (let i = 0; i < all.length; i++) {
    if (await all[i].evaluate((a, b) => a === b, el)) return i;
  }
  return -1;
}

// describe writes the locators on the original page: a name that
// repeats is scoped to its row (as codegen does), else taken by its
// place among the matches.
async function describe(page, aim, el, problems) {
  const frame = aim.frame || undefined;
  const out = {};
  for (const [name, d] of [['getByRole', { kind: 'role', role: aim.role, name: aim.name, frame }], ['getByText', { kind: 'text', text: aim.name, frame }]]) {
    if (await build(page, d).count() !== 1) {
      if (aim.scope_role) d.scope = { role: aim.scope_role, key: aim.scope_key };
      if (!d.scope || await build(page, d).count() !== 1) {
        delete d.scope;
        d.nth = await indexOf(build(page, d), el);
      }
    }
    out[name] = d;
  }
  out.css = { kind: 'css', css: await el.evaluate(cssPath), frame };
  try {
    const norm = await build(page, out.css).normalize();
    out.codegen = { kind: 'selector', selector: norm._selector, code: norm.toString() };
  } catch (e) {
    problems.push('codegen: ' + e.message.split('\n')[0]);
  }
  for (const [name, d] of Object.entries(out)) {
    const l = build(page, d);
    d.code = d.code || l.toString();
    const n = await l.count();
    const at = await l.elementHandles();
    const same = at.length === 1 && await at[0].evaluate((a, b) => a === b || a.control === b, el);
    if (!same) problems.push(`${name} ${d.code} matches ${n} on the original, the target ${n === 1 ? 'not' : ''} among them`);
  }
  return out;
}

// press clicks a locator as a test would: Playwright's own strictness
// and waiting decide.
async function press(l) {
  try {
    if (await l.count() === 0) return { outcome: 'none' };
    await l.click({ timeout: 5000 });
    return { outcome: 'clicked' };
  } catch (e) {
    const msg = e.message.split('\n')[0];
    return { outcome: /strict mode violation/.test(msg) ? 'strict' : /Timeout/.test(msg) ? 'timeout' : 'error', error: msg };
  }
}

(async () => {
  const browser = await chromium.launch({ executablePath: plan.chromium, args: plan.args, headless: true });
  const page = await browser.newPage();
  const result = { version: require(plan.playwright + '/package.json').version, scenarios: [] };
  for (const s of plan.scenarios) {
    const sr = { name: s.name, locators: {}, problems: [], runs: [], ms: 0 };
    const t0 = Date.now();
    result.scenarios.push(sr);
    try {
      await page.goto(`${plan.base}/pw/${s.name}/original`);
      const el = await target(page, s.aim);
      const locs = await describe(page, s.aim, el, sr.problems);
      for (const [name, d] of Object.entries(locs)) sr.locators[name] = d.code;
      for (const v of s.variants) {
        // One load a variant: the locators click one after the other,
        // each click's request answered before the next is marked (the
        // controls' clicks send synchronously), so the server counts
        // each click under its locator.
        await page.goto(`${plan.base}/pw/${s.name}/${v}`);
        for (const [name, d] of Object.entries(locs)) {
          // A locator written the same as one clicked already on this
          // load behaves the same: its outcome is that one's.
          const same = Object.keys(locs).find((o) => o !== name && locs[o].code === d.code && sr.runs.some((r) => r.variant === v && r.locator === o));
          if (same) {
            sr.runs.push({ ...sr.runs.find((r) => r.variant === v && r.locator === same), locator: name, same });
            continue;
          }
          const m = await fetch(`${plan.base}/mark/${s.name}/${v}/${name}`);
          if (!m.ok) throw new Error('mark: ' + m.status);
          sr.runs.push({ variant: v, locator: name, ...(await press(build(page, d))) });
        }
      }
    } catch (e) {
      sr.problems.push(e.message.split('\n')[0]);
    }
    sr.ms = Date.now() - t0;
  }
  await browser.close();
  process.stdout.write(JSON.stringify(result));
})().catch((e) => { console.error(e); process.exit(1); });
