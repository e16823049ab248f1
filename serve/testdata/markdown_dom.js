// Runs web/markdown.js in node with a small stand-in for the DOM and
// prints each case's rendering as tags and text, one line per case (read
// by TestMarkdownRenders). Text nodes print escaped, so markup that came
// in as text shows as &lt;…&gt;, and only elements the renderer made
// print as tags.
'use strict';
class Node_ {
  constructor(tag) { this.tag = tag; this.kids = []; this.attrs = {}; this.className = ''; }
  appendChild(k) { this.kids.push(k); return k; }
  setAttribute(k, v) { this.attrs[k] = v; }
  set textContent(v) { this.kids = [{ text: String(v) }]; }
}
global.document = {
  createElement: (t) => new Node_(t),
  createTextNode: (t) => ({ text: String(t) }),
  createDocumentFragment: () => new Node_(''),
};
global.window = { location: { href: 'http://127.0.0.1:4517/' } };
require(process.argv[2]);
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\n/g, '\\n');
const show = (n) => {
  if (n.text !== undefined) return esc(n.text);
  const all = Object.assign({}, n.attrs, n.className ? { class: n.className } : {});
  const attrs = Object.keys(all).sort().map((k) => ' ' + k + '="' + all[k] + '"').join('');
  const inner = n.kids.map(show).join('');
  return n.tag ? '<' + n.tag + attrs + '>' + inner + '</' + n.tag + '>' : inner;
};
const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
for (const md of cases) console.log(show(window.renderMarkdown(md)));
