// Building the page: elements made with text nodes only — no markup from a message ever becomes HTML.

/** A new element: `attributes` (a `class`, `aria-*`, `on*` handlers as functions) and children (strings or nodes). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name === 'class') node.className = value;
    else if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
  return node;
}

/** The element with id `id`. */
export const byId = (id) => document.getElementById(id);

/** A time as people read it: the hour today, the day otherwise. */
export function when(milliseconds) {
  if (!milliseconds) return '';
  const date = new Date(milliseconds);
  const today = new Date();
  const sameDay = date.toDateString() === today.toDateString();
  return sameDay
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString([], { month: 'short', day: 'numeric' });
}

/** Says `text` to screen readers. */
export function announce(text) {
  const live = byId('live');
  live.textContent = '';
  setTimeout(() => { live.textContent = text; }, 50);
}
