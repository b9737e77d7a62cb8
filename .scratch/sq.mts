import fs from 'node:fs';
import { readQaSet } from '../tests/helpers/multilingual-retrieval.ts';
const l = process.argv[2] as any; const set = readQaSet(l);
fs.writeFileSync(`.scratch/${l}.squad.json`, JSON.stringify({data:[{paragraphs: set.items.map((it,i)=>({context: it.context, qas: it.questions.map((q,j)=>({id:`${i}${j}`, question:q}))}))}]}));
