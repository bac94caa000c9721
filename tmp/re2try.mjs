import { RE2JS } from "re2js";
const pats = [String.raw`(\d{1,3}\.){3}\d{1,3}`, String.raw`export\s+(default\s+)?(function|class|const)\s+\w+`, String.raw`class\s+\w+(\s+extends\s+\w+)?\s*\{`, String.raw`(?:\w+\.)?\w+\(`, String.raw`\d{1,2}:\d{2}(:\d{2})?`, "(a+)+$", "a.*a.*a.*b", "(?<!x)foo", "(a)\\1", "\\u00e9", "\\p{L}+x", "[^\"]*secret"];
for (const p of pats) {
  try { const t = RE2JS.translateRegExp(p); const r = RE2JS.compile(t); console.log(p, "->", t, r.exec("x 10.0.0.1 export default class Foo extends Bar { a.b( 12:30:45 aaab")?.index); }
  catch (e) { console.log(p, "ERR", e.constructor.name, e.message); }
}
const line = "a".repeat(20000);
for (const p of ["(a+)+$", "a.*a.*a.*b", "a*x?a*x?a*b", "(\\w+\\s?)+$"]) { const r = RE2JS.compile(p); const t=performance.now(); const res = r.test(line+"!"); console.log(p, res, (performance.now()-t).toFixed(1),"ms"); }
const text = ("const foo = require('x'); function bar(a, b) { return a + b; }\n").repeat(2000);
for (const p of ["function\\s+\\w+\\(", "(?:\\w+\\.)?\\w+\\(", "zzzq\\w+"]) {
  const r = RE2JS.compile(p, RE2JS.MULTILINE); const v = new RegExp(p, "gmu");
  let t=performance.now(); let n=0; const m = r.matcher(text); while (m.find()) n++; const a = performance.now()-t;
  t=performance.now(); let k=0; while (v.exec(text)) k++; const b=performance.now()-t;
  t=performance.now(); let q=0; for (const l of text.split("\n")) if (r.test(l)) q++; const c=performance.now()-t;
  console.log(p, n, k, q, "re2 find", a.toFixed(1), "v8", b.toFixed(1), "re2 per-line test", c.toFixed(1));
}
