import Database from 'better-sqlite3';
const cols = ['_id','createdAt','status','bot','conversation','chatId','userMessage','assistantMessage','reaction','knowledgeBaseQuery','knowledgeBase','provider','model','inputTokens','outputTokens','tokens','latency'];
for (const dir of process.argv.slice(2)) {
  const db = new Database(dir + '/forja.db', { readonly: true });
  const info = db.prepare('PRAGMA table_info(bot_traces)').all().map((c) => c.name);
  const sel = cols.filter((c) => info.includes(c)).map((c) => `"${c}"`).join(', ');
  const st = db.prepare(`select ${sel} from "bot_traces"`).raw(true);
  for (let k = 0; k < 3; k++) { const c = process.cpuUsage(); let n = 0; for (const r of st.iterate()) n++; const u = process.cpuUsage(c); console.log(dir, info.length, 'cols', n, 'rows', ((u.user + u.system) / n).toFixed(2), 'µs/row'); }
  console.log(db.prepare("select sql from sqlite_master where name='bot_traces'").get().sql.slice(0, 600));
  console.log(db.prepare('PRAGMA page_size').get(), db.prepare('PRAGMA page_count').get());
}
