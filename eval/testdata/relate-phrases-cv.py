#!/usr/bin/env python3
"""CV for issue 31 variants: incidents-noisy relate nDCG + gitbugs-train relate MRR, chosen together.
usage: cv.py DIR base v1 v2 ...   (files DIR/<set>--<variant>.json)
Also prints whole-set paired diffs with intervals for each variant and for CHECK set if present."""
import json, sys, random
D = sys.argv[1]; names = sys.argv[2:]
S = "/work/shared/data"
themes = json.load(open(S + "/incidents-judged/themes.json"))
theme = {}
for t in sorted(themes):
    for c in themes[t]["cases"]:
        theme.setdefault(c, t)
# gitbugs groups: connected components
par = {}
def f(x):
    par.setdefault(x, x)
    while par[x] != x:
        par[x] = par[par[x]]; x = par[x]
    return x
for l in open(S + "/bench/gitbugs-hadoop/dupes-train.tsv"):
    p = l.rstrip("\n").split("\t")
    if len(p) >= 2 and not l.startswith("#"):
        par[f(p[0])] = f(p[1])
sets = [("incidents-noisy", "ndcg", lambda s: "t:" + theme.get(s, s)), ("gitbugs-train", "mrr", lambda s: "g:" + f(s))]
data = {}
for st, m, g in sets:
    rows = {v: json.load(open(f"{D}/{st}--{v}.json"))["relate_per_subject"] for v in names}
    subs = sorted(rows[names[0]])
    data[st] = (subs, {v: [rows[v].get(s, {}).get(m, 0.0) for s in subs] for v in names}, [g(s) for s in subs])

def boot(xs, B=2000, seed=1):
    r = random.Random(seed); n = len(xs); ms = []
    for _ in range(B):
        ms.append(sum(xs[r.randrange(n)] for _ in range(n)) / n)
    ms.sort(); return sum(xs) / n, ms[int(0.025 * B)], ms[int(0.975 * B) - 1]

print("whole sets (paired diff vs %s):" % names[0])
for st, _, _ in sets:
    subs, sc, _ = data[st]
    for v in names:
        d = [a - b for a, b in zip(sc[v], sc[names[0]])]
        mean = sum(sc[v]) / len(subs)
        print("  %-16s %-10s %.4f  diff %+.4f [%+.4f, %+.4f]" % (st, v, mean, *boot(d)))
# CV
held = {st: [[] for _ in data[st][0]] for st, _, _ in sets}
chosen = {}
for shuf in range(5):
    r = random.Random(100 + shuf)
    fold = {}
    for st, _, _ in sets:
        gs = sorted(set(data[st][2])); r.shuffle(gs)
        fold[st] = {g: i % 5 for i, g in enumerate(gs)}
    for k in range(5):
        def obj(v):
            tot = 0
            for st, _, _ in sets:
                subs, sc, gr = data[st]
                xs = [sc[v][i] for i in range(len(subs)) if fold[st][gr[i]] != k]
                tot += sum(xs) / len(xs)
            return tot / len(sets)
        best = names[0]; bo = obj(best)
        for v in names[1:]:
            o = obj(v)
            if o > bo + 1e-12:
                best, bo = v, o
        chosen[best] = chosen.get(best, 0) + 1
        for st, _, _ in sets:
            subs, sc, gr = data[st]
            for i in range(len(subs)):
                if fold[st][gr[i]] == k:
                    held[st][i].append(sc[best][i] - sc[names[0]][i])
print("CV held-out diff (5 folds x 5 shuffles), chosen:", dict(sorted(chosen.items(), key=lambda x: -x[1])))
for st, _, _ in sets:
    d = [sum(x) / len(x) for x in held[st]]
    print("  %-16s %+.4f [%+.4f, %+.4f]" % (st, *boot(d)))
