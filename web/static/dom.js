// h builds an element: h('button.primary', {onclick, disabled}, 'text', child).
// The second argument is attributes only when it is a plain object: any
// other value is the first child, tested against null and undefined rather
// than for truth, so that a 0 (a score) is printed, not dropped.
export function h(spec, attrs, ...children) {
  const [tag, ...classes] = spec.split('.');
  const el = document.createElement(tag || 'div');
  if (classes.length) el.className = classes.join(' ');
  if (attrs != null && (typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'html') el.innerHTML = v; // only for our own SVG
    else if (k === 'value') el.value = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) { while (el.firstChild) el.firstChild.remove(); return el; }

let toastTimer;
export function toast(text, kind = 'error') {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.className = 'show ' + kind;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = ''; }, 4000);
}

// tap makes an element act on a press released over it. The table is
// redrawn whenever a message comes (a bot's card, a timer), which replaces
// the element between press and release and would lose a plain click; a
// release over the redrawn element still counts. A keyboard's click
// (detail 0) acts too. Use it as h('button', {...tap(fn)}).
export function tap(fn) {
  return {
    onpointerup: e => { if (e.button === 0 && !e.currentTarget.disabled) fn(); },
    onclick: e => { if (e.detail === 0) fn(); },
  };
}
