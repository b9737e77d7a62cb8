# The floor to beat: BM25 (k1 1.2, b 0.75) with a per-language analyzer, as Lucene/Elasticsearch language
# analyzers do: lowercase, accent folding, Snowball stemming where Snowball has the language, CJK and Thai as
# overlapping character bigrams (Lucene's CJKAnalyzer); no accent folding for Vietnamese or Hindi, whose marks
# tell words apart. Input: a SQuAD-format JSON file (data[].paragraphs[].context, .qas[].question); each
# question's own paragraph is the right answer. Prints recall@1, recall@5 and MRR over all questions.
# Usage: python3 bm25_lang.py FILE.json LANG   (needs `pip install snowballstemmer`)
import json, re, math, sys, unicodedata
from collections import Counter
import snowballstemmer
STEM = {'es': 'spanish', 'en': 'english', 'de': 'german', 'ru': 'russian', 'ar': 'arabic', 'tr': 'turkish',
        'ro': 'romanian', 'el': 'greek', 'hi': 'hindi'}
CJK = re.compile(r'[\u0e00-\u0e7f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]')  # Thai and CJK: no spaces between words
def words(s):
    # Runs of letters, marks and digits (Unicode categories L*, M*, N*): Devanagari vowel signs stay in their word.
    out, cur = [], []
    for ch in s:
        if unicodedata.category(ch)[0] in 'LMN': cur.append(ch)
        elif cur: out.append(''.join(cur)); cur = []
    if cur: out.append(''.join(cur))
    return out
def analyzer(lang):
    st = snowballstemmer.stemmer(STEM[lang]) if lang in STEM else None
    def tok(s):
        s = s.lower()
        out = []
        for w in words(s):
            if CJK.search(w):
                chars = [c for c in w]
                out += [a + b for a, b in zip(chars, chars[1:])] or chars
                continue
            if st: w = st.stemWord(w)
            if lang not in ('vi', 'hi'): w = ''.join(c for c in unicodedata.normalize('NFD', w) if unicodedata.category(c) != 'Mn')
            out.append(w)
        return out
    return tok
def run(path, lang, k1=1.2, b=0.75):
    tok = analyzer(lang)
    d = json.load(open(path, encoding='utf-8-sig'))
    paras, qs = [], []
    for art in d['data']:
        for p in art['paragraphs']:
            pid = len(paras); paras.append(p['context'])
            for q in p['qas']: qs.append((q['question'], pid))
    docs = [Counter(tok(p)) for p in paras]; N = len(docs)
    lens = [sum(c.values()) for c in docs]; avg = sum(lens) / N
    df = Counter(); [df.update(c.keys()) for c in docs]
    idf = {t: math.log(1 + (N - n + .5) / (n + .5)) for t, n in df.items()}
    r1 = r5 = mrr = 0
    for q, pid in qs:
        qt = tok(q); sc = []
        for i, c in enumerate(docs):
            s = 0
            for t in qt:
                f = c.get(t, 0)
                if f: s += idf[t] * f * (k1 + 1) / (f + k1 * (1 - b + b * lens[i] / avg))
            sc.append(s)
        rank = sorted(range(N), key=lambda i: -sc[i]).index(pid) + 1
        r1 += rank == 1; r5 += rank <= 5; mrr += 1 / rank; print(rank, sc[pid], q, tok(q))
    n = len(qs)
    print(f'{path.split("/")[-1]} lang-analyzer n={n} r@1={r1/n:.3f} r@5={r5/n:.3f} mrr={mrr/n:.3f}')
run(sys.argv[1], sys.argv[2])
