#!/usr/bin/env python3
"""Offline analysis of the decision lens (bench/areas-decide.ts; issue 33, session 21).

    python3 bench/areas-decide.py /tmp/d.jsonl [substrings ...]

Each argument is a comma list of label substrings, one of which a case's label must hold; a case is
read when it meets every argument (`noise0.02/,noise0.05/ clustered,roads,mix`).

Per decision: the truth (saturated: its box holds more places than the case's cap), the waste of
the choice made (a search that saturated: the pages to the cap; a split that would have fit: its
quadrants' pages beyond its own), and geometric features of the places the nearest searched
ancestor view showed around the cell. Prints the waste by class and how well P and the features
set the saturated cells apart (AUC), and the waste under rules replayed on the same decisions.
Cases whose cap varies (region, time) are left out (no one cap to judge saturation by).
"""
import json, math, re, sys
from collections import defaultdict
import numpy as np

path = sys.argv[1]
only = sys.argv[2:]
groups = defaultdict(dict)
dec = []
for line in open(path):
    e = json.loads(line)
    c = e['c']
    if not all(any(o in c for o in arg.split(',')) for arg in only):
        continue
    m = re.search(r'/cap(\d+)/', c)
    if not m:
        continue
    if e['kind'] == 'group':
        groups[c][e['g']] = e
    else:
        e['truecap'] = int(m.group(1))
        dec.append(e)

def pages(n, size=20, step=18):
    return 1 if n < size else (n - size) // step + 2

def searched_ancestor(c, g):
    """The nearest group made by a searched view's split, walking up (None at a root split)."""
    seen = 0
    while g is not None and g in groups[c] and seen < 64:
        G = groups[c][g]
        if G.get('searched'):
            return G
        g = G.get('up')
        seen += 1
    return None

rows = []
for e in dec:
    c = e['c']
    s, w, n_, ea = e['b']
    h, wd = n_ - s, ea - w
    sat = e['n'] > e['truecap']
    size = e.get('size', 20)
    step = size - 2
    # Only the quadrants on the area's shape are searched (`on`; lines written before it: all four).
    exc = sum(pages(q, size, step) for q, o in zip(e['q'], e.get('on', [True] * 4)) if o) - pages(e['n'], size, step)
    A = searched_ancestor(c, e['g'])
    f = {}
    if A is not None:
        pts = np.array(A['sample'], dtype=float).reshape(-1, 2)
        ab = A['b']
        ah, aw = ab[2] - ab[0], ab[3] - ab[1]
        N = len(pts)
        f['anc_n'] = N
        # Sampled places of the ancestor within the cell grown by half its size each side, less those inside.
        inside = ((pts[:, 0] >= s) & (pts[:, 0] < n_) & (pts[:, 1] >= w) & (pts[:, 1] < ea)).sum() if N else 0
        g1 = ((pts[:, 0] >= s - h / 2) & (pts[:, 0] < n_ + h / 2) & (pts[:, 1] >= w - wd / 2) & (pts[:, 1] < ea + wd / 2)).sum() if N else 0
        f['inside'] = int(inside)
        f['ring'] = int(g1 - inside)
        # The cell's share of the ancestor's ground.
        f['ashare'] = (h * wd) / max(1e-18, ah * aw)
        # Clark-Evans ratio of the ancestor's sample (mean nearest-neighbour distance over its uniform
        # expectation 0.5 / sqrt(density)), in units of the ancestor box (lng scaled to its width).
        if N >= 3:
            y = (pts[:, 0] - ab[0]) / ah
            x = (pts[:, 1] - ab[1]) / aw
            d = np.sqrt((y[:, None] - y[None, :]) ** 2 + (x[:, None] - x[None, :]) ** 2)
            np.fill_diagonal(d, np.inf)
            nn = d.min(axis=1)
            f['ce'] = float(nn.mean() / (0.5 / math.sqrt(N)))
            # Nearest sampled place to the cell's centre, in cell sides.
            cy = ((s + n_) / 2 - ab[0]) / ah
            cx = ((w + ea) / 2 - ab[1]) / aw
            dc = np.sqrt((y - cy) ** 2 + (x - cx) ** 2)
            f['near'] = float(dc.min() / (h / ah))
            # Gaussian kernel density at the cell (bandwidth one cell side) over the sample, against the mean.
            bw = h / ah
            f['kde'] = float(np.exp(-0.5 * (dc / bw) ** 2).sum())
            # The cell's own sample: nearest-neighbour distance between its points (cell sides).
            ki = (pts[:, 0] >= s) & (pts[:, 0] < n_) & (pts[:, 1] >= w) & (pts[:, 1] < ea)
            if ki.sum() >= 2:
                dd = d[np.ix_(ki, ki)]
                f['own_nn'] = float(dd.min() / (h / ah))
    k = len(e['k'])
    rows.append(dict(c=c, k=k, rate=e['rate'], p=e['p'], split=e['split'], sat=sat, waste=e['waste'], excess_bet=e['excess'], exc=exc, n=e['n'], cap=e['truecap'], d=e['d'], m=e['m'], v=e['v'], **f))

def auc(score, y):
    score = np.asarray(score, float); y = np.asarray(y, bool)
    if y.all() or (~y).all():
        return float('nan')
    order = np.argsort(score, kind='mergesort')
    ranks = np.empty(len(score)); ranks[order] = np.arange(1, len(score) + 1)
    # ties: average ranks
    for v in np.unique(score):
        t = score == v
        if t.sum() > 1:
            ranks[t] = ranks[t].mean()
    npos = y.sum(); nneg = (~y).sum()
    return float((ranks[y].sum() - npos * (npos + 1) / 2) / (npos * nneg))

def realized(r, split):
    if split:
        return 0 if r['sat'] else r['exc']
    return r['waste'] if r['sat'] else 0

def summary(rs, name):
    thin = [r for r in rs if r['k'] <= 2 and not r['rate']]
    print(f'== {name}: {len(rs)} decisions, {len(set(r["c"] for r in rs))} cases')
    for lab, sub in (('thin', thin), ('rest', [r for r in rs if not (r['k'] <= 2 and not r['rate'])])):
        se = [r for r in sub if not r['split']]
        sp = [r for r in sub if r['split']]
        print(f'  {lab}: searched {len(se)}, saturated {sum(r["sat"] for r in se)} (P {np.mean([r["p"] for r in se if r["sat"]]) if any(r["sat"] for r in se) else 0:.3f}), pages wasted {sum(realized(r, False) for r in se)};'
              f' split {len(sp)}, fit {sum(not r["sat"] for r in sp)}, pages wasted {sum(realized(r, True) for r in sp)} (bet expected {sum(r["excess_bet"] for r in sp if not r["sat"]):.0f})')
    return thin

print(f'{len(rows)} decisions')
thin = summary(rows, 'all')
feats = ['k', 'inside', 'ring', 'ce', 'near', 'kde', 'own_nn', 'd']
def aucs(sub, head):
    y = [r['sat'] for r in sub]
    print(f'{head}: {len(sub)} decisions, {sum(y)} saturated; AUC P {auc([r["p"] for r in sub], y):.3f}', end='')
    for f in feats:
        have = [r for r in sub if f in r]
        if len(have) > 20:
            print(f', {f} {auc([r[f] for r in have], [r["sat"] for r in have]):.3f} (n {len(have)})', end='')
    print()

for lab, sub in (('thin', thin), ('all', rows)):
    aucs(sub, f'AUC {lab}')

# ---- Does the geometry add to P? A logistic fit of saturated on logit(P) and the features, scored
# by leaving each case out (fit on the others), and the bet replayed with the fitted P on the same
# decisions: split when P' x waste > (1 - P') x the bet's excess.
def logit(p):
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))

def design(r, which):
    x = [1.0, logit(r['p'])]
    has = 'kde' in r
    for f in which:
        if f == 'ring': x.append(math.log1p(r.get('ring', 0)) if has else 0.0)
        elif f == 'inside': x.append(math.log1p(r.get('inside', 0)) if has else 0.0)
        elif f == 'kde': x.append(math.log(r.get('kde', 0) + 0.05) if has else 0.0)
        elif f == 'ce': x.append(math.log(r.get('ce', 1)) if has else 0.0)
        elif f == 'near': x.append(math.log(r.get('near', 1) + 0.01) if has else 0.0)
        elif f == 'own_nn': x.append(math.log(r['own_nn'] + 0.01) if 'own_nn' in r else 0.0)
        elif f == 'has': x.append(1.0 if has else 0.0)
        elif f == 'k': x.append(math.log1p(r['k']))
    return x

def fit(X, y, l2=1e-3):
    X = np.asarray(X); y = np.asarray(y, float)
    b = np.zeros(X.shape[1])
    for _ in range(50):
        z = X @ b
        p = 1 / (1 + np.exp(-z))
        g = X.T @ (p - y) + l2 * b
        H = (X * (p * (1 - p))[:, None]).T @ X + l2 * np.eye(X.shape[1])
        step = np.linalg.solve(H, g)
        b -= step
        if np.abs(step).max() < 1e-8:
            break
    return b

def evaluate(rs, which, name):
    cases = sorted(set(r['c'] for r in rs))
    pp = {}
    for c in cases:
        tr = [r for r in rs if r['c'] != c]
        b = fit([design(r, which) for r in tr], [r['sat'] for r in tr])
        for i, r in enumerate(rs):
            if r['c'] == c:
                pp[id(r)] = 1 / (1 + math.exp(-float(np.dot(design(r, which), b))))
    y = [r['sat'] for r in rs]
    ll = -np.mean([math.log(pp[id(r)] if r['sat'] else 1 - pp[id(r)]) for r in rs])
    w_now = sum(realized(r, r['split']) for r in rs)
    w_new = sum(realized(r, pp[id(r)] * r['waste'] > (1 - pp[id(r)]) * r['excess_bet']) for r in rs)
    w_p = sum(realized(r, r['p'] * r['waste'] > (1 - r['p']) * r['excess_bet']) for r in rs)
    print(f'  {name:28s} AUC {auc([pp[id(r)] for r in rs], y):.4f} logloss {ll:.4f}; pages wasted: as run {w_now}, bet on P {w_p}, bet on fitted P {w_new}')
    return pp

for lab, sub in (('thin', thin), ('all', rows)):
    print(f'-- leave one case out, {lab} ({len(sub)} decisions)')
    y = [r['sat'] for r in sub]
    ll0 = -np.mean([math.log(min(max(r['p'], 1e-6), 1 - 1e-6) if r['sat'] else 1 - min(max(r['p'], 1e-6), 1 - 1e-6)) for r in sub])
    print(f'  P as is: logloss {ll0:.4f}')
    evaluate(sub, [], 'P recalibrated')
    for which in (['has', 'ring'], ['has', 'inside'], ['has', 'kde'], ['has', 'ce'], ['has', 'near'], ['own_nn'], ['k'], ['has', 'ring', 'kde', 'ce', 'near', 'own_nn', 'k']):
        evaluate(sub, which, '+'.join(which))

# ---- The contested decisions (P between 0.02 and 0.6: where the bet's choice is not plain), and the
# bet's threshold scaled (split when P x waste > t x (1 - P) x excess), as a check the bet is placed.
for lab, sub in (('thin', thin), ('all', rows)):
    con = [r for r in sub if 0.02 <= r['p'] <= 0.6]
    aucs(con, f'-- contested {lab}')
    if len(set(r['c'] for r in con)) > 2:
        for which in ([], ['has', 'ring'], ['has', 'kde'], ['has', 'ce'], ['has', 'near'], ['own_nn'], ['k']):
            evaluate(con, which, '+'.join(which) or 'P recalibrated')
    print('  threshold t: ' + ', '.join(f'{t} {sum(realized(r, r["p"] * r["waste"] > t * (1 - r["p"]) * r["excess_bet"]) for r in sub)}' for t in (0.5, 0.7, 0.85, 1, 1.2, 1.5, 2, 2.5, 3, 4)))
