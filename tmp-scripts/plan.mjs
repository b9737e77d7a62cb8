import Database from 'better-sqlite3';
for (const dir of process.argv.slice(2)) {
  const db = new Database(dir + '/forja.db', { readonly: true });
  console.log(dir, db.prepare("select name, sql from sqlite_master where tbl_name='bot_traces' and type='index'").all().map((r) => r.sql ?? r.name).join('\n  '));
  for (const sql of [
    'select * from bot_traces order by "createdAt" desc, "_id" desc limit 10 offset 0',
    'select * from bot_traces where status = ? order by "createdAt" desc, "_id" desc limit 10 offset 0',
    'select count(*) from bot_traces',
  ]) {
    console.log(' ', sql, '\n   ', db.prepare('explain query plan ' + sql).all(...(sql.includes('?') ? ['x'] : [])).map((r) => r.detail).join(' | '));
    const st = db.prepare(sql); const args = sql.includes('?') ? [db.prepare('select status from bot_traces limit 1').get().status] : [];
    for (let i = 0; i < 50; i++) st.all(...args);
    const c = process.cpuUsage(); for (let i = 0; i < 300; i++) st.all(...args); const u = process.cpuUsage(c);
    console.log('    ', ((u.user + u.system) / 300).toFixed(0), 'µs/call');
  }
}
