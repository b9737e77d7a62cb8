import Database from 'better-sqlite3';
import { readQaSet } from '/work/wt-rag/tests/helpers/multilingual-retrieval.ts';
import { analyzerOf } from '/work/wt-rag/server/language/language-analyzers.ts';
import { SqliteFtsIndex } from '/work/wt-rag/server/rag/search/sqlite-fts-index.ts';
import { sha256Hex } from '/work/wt-rag/server/rag/chunk/sha256-hex.ts';
const lang = process.argv[2] as any;
const set = readQaSet(lang); const an = analyzerOf(lang);
const docs = set.items.map(i => an.terms(i.context)); const N = docs.length; const avg = docs.reduce((a,d)=>a+d.length,0)/N;
const df = new Map<string,number>(); for (const d of docs) for (const t of new Set(d)) df.set(t,(df.get(t)??0)+1);
const db = new Database(':memory:'); const idx = new SqliteFtsIndex(db);
await idx.replace('k', set.items.map((it,i)=>({content: it.context, hash: sha256Hex(it.context), source: String(i)})));
for (const [pid, it] of set.items.entries()) for (const q of it.questions) {
  const qt = an.terms(q);
  const sc = docs.map((d) => { let s=0; for (const t of qt) { const f = d.filter(x=>x===t).length; if (f) { const n=df.get(t)!; s += Math.log(1+(N-n+.5)/(n+.5))*f*2.2/(f+1.2*(1-.75+.75*d.length/avg)); } } return s; });
  const rank = [...sc.keys()].sort((a,b)=>sc[b]-sc[a]).indexOf(pid)+1;
  const res = await idx.search('k', q, {maxResults: 12, scoreThreshold: 0});
  const r2 = res.findIndex(r=>r.source===String(pid))+1;
  if (rank !== r2) console.log(q, 'pure', rank, 'index', r2, JSON.stringify(qt));
}
