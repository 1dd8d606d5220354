/*
 * _csolver: the depth-first search of the Yukon Daily solver, in C.
 *
 * solve() takes a position as plain integers (cards are suit*13 + rank-1, suits
 * c d h s), searches it with the GIL released and returns (verdict, moves, nodes,
 * reason); Search is the same search as an object whose run() resumes where the last run
 * stopped (the portfolio's proof search runs in slices between the restarts);
 * legal_moves() exposes the move generator for tests against the engine. Everything else (deals, text, verification of the
 * line, the portfolio of searches) lives in Python: see yukon/solver/ and
 * docs/solver.md, which also gives the soundness argument of every pruning rule.
 *
 * verdict: 0 solved (moves is the line, move = card << 3 | dest, dest 7 = foundation),
 *          1 exhausted: no win is reachable (every flag is a proven-sound rule, so any
 *            combination of them gives a sound verdict), 2 budget ran out (reason).
 *
 * The transposition table stores a 128-bit Zobrist key of the position. The key is
 * the XOR of one random 128-bit value per (card, what lies under it) pair and one per
 * face-down card; with F_CANON the bottom of every column is the same "floor", so the
 * key ignores the order of the columns, and the foundations follow from the tableau.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/mman.h>

#include "_common.h"

#define NCOLS 7
#define HOME 7
#define FOUND_DEST 7
#define MAXMOVES 96
#define TT_LOAD 0.5 /* fill the table up to this share: longer probe runs cost more than the memory (0.7: 17 % slower) */
#define TT_LOAD_CAP 0.7 /* at the memory cap, where it cannot grow, up to this share */
#define FLOOR 52 /* "below" value of a bottom card; 52 + column without F_CANON */

/* V_MOOSEHIDE builds down in any suit but the card's own; V_MOOSEHIDE_RUNS is Yukon's
 * build with only ordered runs moving (the engine's "moosehide-runs"). */
enum { V_YUKON = 0, V_RUSSIAN = 1, V_ALASKA = 2, V_MOOSEHIDE = 3, V_MOOSEHIDE_RUNS = 4, V_COUNT = 5 };

/* Pruning rules; each can be switched off for the soundness tests. */
#define F_AUTO 1      /* safe auto-foundation: a card nothing can ever land on goes home */
#define F_ONE_EMPTY 2 /* only the first of several empty columns is tried */
#define F_CANON 4     /* columns are interchangeable in the transposition table */
#define F_STUCK 16    /* a position where some card can never go home is lost: not expanded */
#define F_TWIN 32     /* at a search's first position: two cards that need the same parent at once */
#define F_ALL (F_AUTO | F_ONE_EMPTY | F_CANON | F_STUCK | F_TWIN)
#define F_MERGE 64    /* twin classes (Yukon): one table entry per class of positions that flips connect */
/* Bit 8 is unused since a rule was dropped (docs/solver-history.md): the other bits keep
 * their values, so flags written before still mean the same rules. */
#define F_KNOWN (F_ALL | F_MERGE)

#define VARIANT_ERROR "variant must be 0 (yukon), 1 (russian), 2 (alaska), 3 (moosehide) or 4 (moosehide-runs)"

enum { R_NONE = 0, R_NODES, R_TIME, R_MEMORY, R_WALL };
static const char *REASONS[] = {"", "nodes", "seconds", "memory", "wall"};

/* Z[card][under] and D[card] (face down): the two words of a key's random value side by
 * side, so a change of the key reads one cache line, not two */
static uint64_t Z[52][FLOOR + NCOLS][2] __attribute__((aligned(64))), D[52][2] __attribute__((aligned(64)));

typedef struct {
    uint16_t move;
    int8_t src;
    int8_t height;
    int8_t turned;
} Undo;

typedef struct {
    uint16_t moves[MAXMOVES];
    uint8_t known[MAXMOVES]; /* the child was already in the table when this frame began */
    uint8_t keyed[MAXMOVES]; /* ka, kb hold the child's key (see child_key) */
    uint64_t ka[MAXMOVES], kb[MAXMOVES];
    int n, idx;
    size_t mark; /* log length when this position was reached */
    /* F_MERGE: the class's members are s->mem[mem_base..], their moves s->cmv[mv_idx..mv_end),
     * tried after the frame's own moves */
    size_t mem_base, mv_base, mv_idx, mv_end;
} Frame;

/* F_MERGE: a member of a class, reached from member `parent` (0 is the class's entry) by
 * the flip `flip`; a member's move. */
typedef struct {
    uint32_t parent;
    uint16_t flip;
} Member;
typedef struct {
    uint64_t a, b; /* the class key it leads to (keyed) */
    uint32_t member;
    uint16_t move;
    uint8_t keyed;
} MemberMove;

/* A set of 128-bit keys (the transposition table): open addressing over a power of two
 * of 16-byte slots, (0, 0) marking a free slot, filled to TT_LOAD (TT_LOAD_CAP once it
 * is at its cap and cannot grow).
 *
 * A table that may narrow (the portfolio's proof search) changes to 8-byte slots when it
 * doubles to narrow_at slots (2^23 in the portfolio): a quotient table. A key's home slot
 * is still the top bits of its second word; its slot holds the 56 bits of the key (b,
 * then a) that follow the first qbits (the home bits when it narrowed) and, in its low
 * byte, 1 + its distance from home (at most NARROW_REACH - 1). Home and slot together tell
 * keys apart by qbits + 56 (79 in the portfolio) bits, not 128: two positions may be
 * taken for one, so an exhausted
 * narrow search only says "probably lost" (the caller proves it again with a wide table)
 * while a win it finds is a real line. Half the bytes per position: fewer cache misses
 * and pages to clear on the large searches where the time goes. */
enum { NARROW_NO = 0, NARROW_MAY, NARROW_YES };
#define NARROW_REACH 255
typedef struct {
    uint64_t *t;
    size_t slots, mask, count, limit, max_slots, cap_bytes;
    int shift; /* a key's home slot is its top bits: b >> shift */
    int narrow; /* NARROW_NO, NARROW_MAY (16-byte slots until narrow_at) or NARROW_YES */
    int words;  /* 64-bit words per slot: 2, or 1 once narrow */
    int qbits;  /* narrow: the home bits when it narrowed */
    size_t narrow_at; /* NARROW_MAY: narrow when it doubles to this many slots */
    uint64_t qmask;   /* the quotient bits kept: all 56, fewer only to test false merges */
} Table;

typedef struct {
    int variant, flags, runs_only;
    int takeback; /* the foundation_takeback option: the top card of a foundation may come back */
    uint8_t cols[NCOLS][52];
    int len[NCOLS], down[NCOLS], found[4];
    int8_t col_of[52], pos_of[52];
    uint8_t fits[52][52]; /* fits[c][p]: c may be placed on p */
    int nchild[52];
    uint8_t child[52][4];
    int npar[52];
    uint8_t par[52][4];
    int8_t pidx[52][52]; /* pidx[c][p]: index of p in par[c], or -1 */
    uint64_t childmask[52]; /* childmask[p]: the cards that may be placed on p, as a bit set */
    uint64_t lowchild[52];  /* lowchild[p]: the cards with two parents, p the lower (by number) */
    /* flipkey[x]: what a flip of x (off one of its two parents onto the other) changes in
     * the key, Z[x][one parent] ^ Z[x][the other]: the same whichever way (a table small
     * enough to stay in the first-level cache, where Z is not) */
    uint64_t flipkey[52][2];
    int nhome;
    uint64_t on_parent; /* the tableau cards that lie face up on a face-up parent */
    uint64_t ha, hb;
    Table tt; /* transposition table */
    /* budgets */
    uint64_t nodes, max_nodes;
    double deadline;      /* CPU time of the calling thread (0: none) */
    double wall_deadline; /* monotonic wall clock (0: none) */
    int reason;
    /* ordering */
    int randomize;
    uint64_t rng;
    /* resumable search: started (the root is in the table), pending_frame (the current
     * position is in the table but its moves are not generated yet), finished (0, or
     * 1 + the final verdict: 0 solved, 1 exhausted, 2 out of memory) */
    int started, pending_frame, finished;
    int grow_aborted; /* the last doubling was stopped by the clock: the next one completes */
    /* line and undo */
    Undo *log;
    size_t log_len, log_cap;
    Frame *frames;
    size_t nframes, frames_cap;
    /* F_MERGE: the members of the classes on the stack and their moves; the raw keys of
     * the members of the class being closed (scratch) */
    Member *mem;
    size_t mem_len, mem_cap;
    MemberMove *cmv;
    size_t cmv_len, cmv_cap;
    uint64_t *mkey; /* raw keys, two words each */
    size_t mkey_cap, nkeys;
    uint32_t *mslot, *mstamp; /* a hash set over mkey: a slot is used when its stamp is mgen */
    uint32_t mslots, mgen;
    uint64_t members;
} S;

static void init_keys(void) {
    uint64_t st = 0x59554b4f4e2d534fULL;
    for (int c = 0; c < 52; c++) {
        for (int b = 0; b < FLOOR + NCOLS; b++) {
            Z[c][b][0] = splitmix(&st);
            Z[c][b][1] = splitmix(&st);
        }
        D[c][0] = splitmix(&st);
        D[c][1] = splitmix(&st);
    }
}

/* R_TIME or R_WALL when a deadline has passed, else R_NONE. */
static int clock_out(const S *s) {
    if (s->deadline > 0 && cpu_now() >= s->deadline) return R_TIME;
    if (s->wall_deadline > 0 && now() >= s->wall_deadline) return R_WALL;
    return R_NONE;
}

static inline int rank0(int c) { return c % 13; }
static inline int suit(int c) { return c / 13; }
static inline int is_red(int c) { return c >= 13 && c < 39; }

static int card_fits(int variant, int c, int p) {
    int colour_ok, gap = rank0(p) - rank0(c);
    if (variant == V_YUKON || variant == V_MOOSEHIDE_RUNS)
        colour_ok = is_red(c) != is_red(p);
    else if (variant == V_MOOSEHIDE)
        colour_ok = suit(c) != suit(p);
    else
        colour_ok = suit(c) == suit(p);
    return colour_ok && (gap == 1 || (variant == V_ALASKA && gap == -1));
}

static inline int below_key(S *s, int k, int h) {
    if (h == 0) return (s->flags & F_CANON) ? FLOOR : FLOOR + k;
    return s->cols[k][h - 1];
}

static inline void hash_card(S *s, int c, int below) {
    s->ha ^= Z[c][below][0];
    s->hb ^= Z[c][below][1];
}

/* ---------------------------------------------------------------- moves */

/* The cards of column src from height from up onto column dst from height at: the one
 * copy of every move between columns, made or undone (src != dst). */
static inline void shift_cards(S *s, int src, int from, int dst, int at) {
    for (int i = from, n = s->len[src]; i < n; i++, at++) {
        int y = s->cols[src][i];
        s->cols[dst][at] = (uint8_t)y;
        s->col_of[y] = (int8_t)dst;
        s->pos_of[y] = (int8_t)at;
    }
    s->len[dst] = at;
    s->len[src] = from;
}

/* The card under height h of column k turns face up (by -1) or back down (by +1): the
 * one place a move's turn changes the face-down count and the key. */
static inline void turn_card(S *s, int k, int h, int by) {
    int t = s->cols[k][h - 1];
    s->down[k] += by;
    s->ha ^= D[t][0];
    s->hb ^= D[t][1];
}

/* Make a move known to be legal; log it for undo. */
static int push_move(S *s, int move) {
    int c = move >> 3, d = move & 7;
    int k = s->col_of[c], h = s->pos_of[c];
    Undo u;
    if (s->log_len == s->log_cap) {
        size_t cap = s->log_cap ? s->log_cap * 2 : 1024;
        Undo *nl = realloc(s->log, cap * sizeof(Undo));
        if (!nl) return -1;
        s->log = nl;
        s->log_cap = cap;
    }
    if (k == HOME) { /* a take-back: the top card of its foundation onto column d */
        int base = s->len[d];
        if (base && s->fits[c][s->cols[d][base - 1]]) s->on_parent |= 1ULL << c;
        hash_card(s, c, below_key(s, d, base));
        s->cols[d][base] = (uint8_t)c;
        s->len[d] = base + 1;
        s->col_of[c] = (int8_t)d;
        s->pos_of[c] = (int8_t)base;
        s->found[suit(c)]--;
        s->nhome--;
        u.move = (uint16_t)move;
        u.src = HOME;
        u.height = 0;
        u.turned = 0;
        s->log[s->log_len++] = u;
        return 0;
    }
    hash_card(s, c, below_key(s, k, h));
    s->on_parent &= ~(1ULL << c);
    if (d == FOUND_DEST) {
        s->len[k]--;
        s->found[suit(c)]++;
        s->col_of[c] = HOME;
        s->nhome++;
    } else {
        int base = s->len[d];
        if (base && s->fits[c][s->cols[d][base - 1]]) s->on_parent |= 1ULL << c;
        hash_card(s, c, below_key(s, d, base));
        shift_cards(s, k, h, d, base);
    }
    u.move = (uint16_t)move;
    u.src = (int8_t)k;
    u.height = (int8_t)h;
    u.turned = 0;
    if (h > 0 && h == s->down[k]) {
        turn_card(s, k, h, -1);
        u.turned = 1;
    }
    s->log[s->log_len++] = u;
    return 0;
}

static void pop_move(S *s) {
    Undo u = s->log[--s->log_len];
    int c = u.move >> 3, d = u.move & 7, k = u.src, h = u.height;
    if (k == HOME) {
        s->len[d]--;
        hash_card(s, c, below_key(s, d, s->len[d]));
        s->on_parent &= ~(1ULL << c);
        s->col_of[c] = HOME;
        s->pos_of[c] = 0;
        s->found[suit(c)]++;
        s->nhome++;
        return;
    }
    if (u.turned) turn_card(s, k, h, +1);
    if (d == FOUND_DEST) {
        s->cols[k][h] = (uint8_t)c;
        s->len[k] = h + 1;
        s->col_of[c] = (int8_t)k;
        s->pos_of[c] = (int8_t)h;
        s->found[suit(c)]--;
        s->nhome--;
    } else {
        int from = s->pos_of[c];
        hash_card(s, c, below_key(s, d, from));
        shift_cards(s, d, from, k, h);
    }
    hash_card(s, c, below_key(s, k, h));
    uint64_t bit = 1ULL << c;
    s->on_parent = h > s->down[k] && s->fits[c][s->cols[k][h - 1]] ? s->on_parent | bit : s->on_parent & ~bit;
}

/* A flip (is_flip) made without the undo log, and undone: it turns no card, sends none
 * home, and leaves on_parent as it was (the pile's lowest card x lies on a parent before
 * and after; every other card keeps what it lies on), and its key change is flipkey[x].
 * For the closure of a class and the class key's walk, which undo their flips themselves
 * in stack order with the logged moves: every move logged after a flip is undone before
 * the flip, and the flip before any move logged before it. flip_make returns the height
 * x had in its column. */
static inline int flip_make(S *s, int x, int d) {
    int k = s->col_of[x], h = s->pos_of[x];
    s->ha ^= s->flipkey[x][0];
    s->hb ^= s->flipkey[x][1];
    shift_cards(s, k, h, d, s->len[d]);
    return h;
}

/* Undo flip_make(s, x, d) made from column k, height h. */
static inline void flip_unmake(S *s, int x, int k, int h) {
    s->ha ^= s->flipkey[x][0];
    s->hb ^= s->flipkey[x][1];
    shift_cards(s, s->col_of[x], s->pos_of[x], k, h);
}

/* Any move between columns (it may turn a card, and its lowest card c may land on a
 * non-parent or an empty column, or leave one) made without the undo log, and undone by
 * pile_unmake with what it returns: the height c had, and whether a card turned. For
 * made_key, in stack order with the logged moves as flip_make. */
static inline int pile_make(S *s, int c, int d, int *turned) {
    int k = s->col_of[c], h = s->pos_of[c], base = s->len[d];
    hash_card(s, c, below_key(s, k, h));
    hash_card(s, c, below_key(s, d, base));
    s->on_parent = base && s->fits[c][s->cols[d][base - 1]] ? s->on_parent | 1ULL << c : s->on_parent & ~(1ULL << c);
    shift_cards(s, k, h, d, base);
    *turned = h > 0 && h == s->down[k];
    if (*turned) turn_card(s, k, h, -1);
    return h;
}

static inline void pile_unmake(S *s, int c, int k, int h, int turned) {
    int d = s->col_of[c], from = s->pos_of[c];
    if (turned) turn_card(s, k, h, +1);
    hash_card(s, c, below_key(s, d, from));
    shift_cards(s, d, from, k, h);
    hash_card(s, c, below_key(s, k, h));
    uint64_t bit = 1ULL << c;
    s->on_parent = h > s->down[k] && s->fits[c][s->cols[k][h - 1]] ? s->on_parent | bit : s->on_parent & ~bit;
}

static int is_run(S *s, int k, int h) {
    for (int i = h; i + 1 < s->len[k]; i++)
        if (!s->fits[s->cols[k][i + 1]][s->cols[k][i]]) return 0;
    return 1;
}

static inline int face_up_in_tableau(S *s, int c) {
    int k = s->col_of[c];
    return k != HOME && s->pos_of[c] >= s->down[k];
}

/* Safe auto-foundation: the exposed card c may go home and every card that could ever
 * be placed on it is already home, so nothing can need c in the tableau again. */
static int safe_home(S *s, int c) {
    if (s->found[suit(c)] != rank0(c)) return 0;
    for (int i = 0; i < s->nchild[c]; i++)
        if (s->col_of[s->child[c][i]] != HOME) return 0;
    return 1;
}

/* only_col >= 0: the last move took a pile from that column to another column, so the
 * foundations did not change and only that column's new top card can have become safe. */
static int apply_autos(S *s, int only_col) {
    if (!(s->flags & F_AUTO)) return 0;
    if (only_col >= 0 && !(s->len[only_col] && safe_home(s, s->cols[only_col][s->len[only_col] - 1]))) return 0;
    int again = 1;
    while (again) {
        again = 0;
        for (int k = 0; k < NCOLS; k++) {
            if (s->len[k] && safe_home(s, s->cols[k][s->len[k] - 1])) {
                if (push_move(s, s->cols[k][s->len[k] - 1] << 3 | FOUND_DEST) < 0) return -1;
                again = 1;
            }
        }
    }
    return 0;
}

static inline uint64_t rnd(S *s) { return splitmix(&s->rng); }

/* The column a tableau-to-tableau move leaves (apply_autos' only_col), or -1 for a move
 * home or a take-back. */
static inline int move_source(const S *s, int move) {
    return (move & 7) == FOUND_DEST || s->col_of[move >> 3] == HOME ? -1 : s->col_of[move >> 3];
}

/* The order of the moves: a higher key is tried first (the low 8 bits break ties, at
 * random in a restart). */
static int order_key(const S *s, int move) {
    int c = move >> 3, d = move & 7;
    int k = s->col_of[c], h = s->pos_of[c];
    if (k == HOME) return -256; /* take-backs last */
    int key;
    if (h > 0 && h == s->down[k]) /* turns a card */
        key = 1000 + 10 * s->down[k] + (d == FOUND_DEST ? 5 : 0);
    else if (d == FOUND_DEST)
        key = 600;
    else if (h == 0)
        key = 300; /* empties a column (a King never moves from the bottom) */
    else if (s->len[d] == 0)
        key = 100; /* a King into an empty column, turning nothing */
    else if (s->fits[c][s->cols[k][h - 1]])
        key = 0; /* moves a pile between two parents */
    else
        key = 200; /* frees a face-up card that sat on a non-parent */
    return key << 8;
}

static void sort_moves(uint16_t *out, int *keys, int n);

static int gen_moves(S *s, uint16_t *out) {
    int n = 0, empties[NCOLS], ne = 0;
    int keys[MAXMOVES];
    for (int k = 0; k < NCOLS; k++) {
        if (!s->len[k]) {
            empties[ne++] = k;
            continue;
        }
        int top = s->cols[k][s->len[k] - 1];
        if (s->found[suit(top)] == rank0(top)) out[n++] = (uint16_t)(top << 3 | FOUND_DEST);
        for (int i = 0; i < s->nchild[top]; i++) {
            int ch = s->child[top][i];
            int kc = s->col_of[ch];
            if (kc == HOME || kc == k || s->pos_of[ch] < s->down[kc]) continue;
            if (s->runs_only && !is_run(s, kc, s->pos_of[ch])) continue;
            out[n++] = (uint16_t)(ch << 3 | k);
        }
    }
    if (ne) {
        if (s->flags & F_ONE_EMPTY) ne = 1;
        for (int kg = 12; kg < 52; kg += 13) {
            int kc = s->col_of[kg];
            if (kc == HOME || s->pos_of[kg] == 0 || s->pos_of[kg] < s->down[kc]) continue;
            if (s->runs_only && !is_run(s, kc, s->pos_of[kg])) continue;
            for (int e = 0; e < ne; e++) out[n++] = (uint16_t)(kg << 3 | empties[e]);
        }
    }
    if (s->takeback) {
        /* the top card of each foundation onto an exposed card it may be placed on, or
         * (a King) into an empty column (only the first with F_ONE_EMPTY) */
        for (int u = 0; u < 4; u++) {
            if (!s->found[u]) continue;
            int c = u * 13 + s->found[u] - 1;
            for (int k = 0; k < NCOLS; k++) {
                if (s->len[k] ? s->fits[c][s->cols[k][s->len[k] - 1]] : rank0(c) == 12 && (k == empties[0]
                        || !(s->flags & F_ONE_EMPTY)))
                    out[n++] = (uint16_t)(c << 3 | k);
            }
        }
    }
    /* ordering: a higher key is tried first */
    for (int i = 0; i < n; i++) {
        keys[i] = order_key(s, out[i]);
        if (s->randomize) keys[i] += (int)(rnd(s) & 255);
    }
    sort_moves(out, keys, n);
    return n;
}

static void sort_moves(uint16_t *out, int *keys, int n) {
    /* insertion sort, descending, stable */
    for (int i = 1; i < n; i++) {
        int kk = keys[i];
        uint16_t mv = out[i];
        int j = i - 1;
        while (j >= 0 && keys[j] < kk) {
            keys[j + 1] = keys[j];
            out[j + 1] = out[j];
            j--;
        }
        keys[j + 1] = kk;
        out[j + 1] = mv;
    }
}

/* ---------------------------------------------------------------- cards that can never go home (F_STUCK) */

/* Cards that can never go home (docs/solver.md, "Cards that can never go home"): the least
 * fixpoint of three kinds of event, each of which can only happen after one of the events
 * that enable it has happened (or holds now):
 *   E(c), c becomes the top of its column: it is the top now, or the card lying on it now
 *         moves away as the lowest card of a pile, B(that card);
 *   B(c), c moves as the lowest card of a pile (or alone, home): c is face-up now or E(c)
 *         (it turns when it becomes the top), and H(c), or E(p) for a parent p not home,
 *         or c is a King not at the bottom of its column and some column can be empty
 *         (one is now, or the bottom card of one does B);
 *   H(c), c goes home: E(c), and c is an Ace or H(its predecessor).
 * Every event of any line of play from here is in the fixpoint, by induction on the time
 * it first happens; a card outside H never goes home. Cards never leave a foundation
 * here: the rules are off with take-back.
 *
 * fixpoint() never derives H(forbid_home) and B(forbid_base) (-1: none): it then holds
 * what can happen on a line of play before forbid_home goes home, or on a line where
 * forbid_base never moves as the lowest card of a pile. It returns the H set, and the E
 * set in *pe; with stop_early, as soon as every card is in H. */
#define KINGS 0x8004002001000ULL /* bit 12 of each suit */

static inline uint64_t home_mask(const S *s) {
    uint64_t home = 0;
    for (int u = 0; u < 4; u++) home |= ((1ULL << s->found[u]) - 1) << (13 * u);
    return home;
}

static uint64_t fixpoint(const S *s, int forbid_home, int forbid_base, int stop_early, uint64_t *pe) {
    const uint64_t all = (1ULL << 52) - 1, home = home_mask(s);
    uint64_t down = 0, bottoms = 0, E = 0;
    int empty = 0;
    for (int k = 0; k < NCOLS; k++) {
        int n = s->len[k];
        if (!n) {
            empty = 1;
            continue;
        }
        bottoms |= 1ULL << s->cols[k][0];
        E |= 1ULL << s->cols[k][n - 1];
        for (int h = 0; h < s->down[k]; h++) down |= 1ULL << s->cols[k][h];
    }
    const uint64_t tab = all & ~home, up = tab & ~down, lifted_kings = KINGS & tab & ~bottoms;
    const uint64_t may_move = forbid_base >= 0 ? ~(1ULL << forbid_base) : ~0ULL;
    uint64_t B = 0, H = home, with_parent = 0;
    for (uint64_t x = E; x; x &= x - 1) with_parent |= s->childmask[__builtin_ctzll(x)];
    for (;;) {
        /* H in each suit: the cards home, then the next ranks as long as each can be the top */
        uint64_t reach = E | home;
        H = 0;
        for (int u = 0; u < 4; u++) {
            unsigned m = (unsigned)__builtin_ctzll(~(reach >> (13 * u)) | (1ULL << 13));
            if (forbid_home >= 0 && suit(forbid_home) == u && (unsigned)rank0(forbid_home) < m)
                m = (unsigned)rank0(forbid_home);
            H |= ((1ULL << m) - 1) << (13 * u);
        }
        if (stop_early && H == all) break;
        uint64_t moved = (up | E) & tab & ~B & may_move & (H | with_parent | (empty ? lifted_kings : 0));
        if (!moved) break;
        B |= moved;
        /* down each moved card's column at once: the card under a moved card becomes the
         * top (E); if it can move too, so does the one under it (the rounds would find the
         * same, one card per round) */
        for (uint64_t x = moved; x; x &= x - 1) {
            int c = __builtin_ctzll(x), k = s->col_of[c], h = s->pos_of[c];
            for (; h > 0; h--) {
                int b = s->cols[k][h - 1];
                uint64_t bit = 1ULL << b;
                if (E & bit) break;
                E |= bit;
                with_parent |= s->childmask[b];
                if ((B & bit) || !(bit & may_move & (H | with_parent | (empty ? lifted_kings : 0)))) break;
                B |= bit;
            }
            if (h == 0) empty = 1;
        }
    }
    if (pe) *pe = E;
    return H;
}

/* 1 when some card of the tableau can never go home: the position is lost. */
static int never_home(const S *s) {
    return fixpoint(s, -1, -1, 1, NULL) != (1ULL << 52) - 1;
}

/* 1 when the last move took a pile from one parent of its lowest card to another (and no
 * card went home after it). The position before was tested and not lost, and the test
 * gives both the same answer: in the one before, the pile's lowest card c can move onto
 * the parent it lies on now, which is the top there, so B(c) and then E of the parent it
 * left hold; here the same with the two parents swapped; after that the two fixpoints
 * derive the same events (docs/solver.md). So the test is not run again. */
static int between_parents(const S *s) {
    if (!s->log_len) return 0;
    Undo u = s->log[s->log_len - 1];
    int c = u.move >> 3;
    return (u.move & 7) != FOUND_DEST && u.src != HOME && !u.turned && u.height > 0
           && s->fits[c][s->cols[u.src][u.height - 1]];
}

/* 1 when two cards must both lie directly on the same card p at the moment some card x
 * goes home, which cannot be (docs/solver.md, "Two cards that need the same parent"). For
 * x among the children of p: a child c (not a King) lies on p just before x goes home when
 * it cannot go anywhere else before that (not home unless it is x, onto no other parent
 * that can become the top before x goes home), and it either lies on p now or must move
 * as the lowest card of a pile before x can go home. Up to two fixpoints per card, so it
 * runs at the first position of a search only. */
static int twin_lock(const S *s) {
    const uint64_t home = home_mask(s);
    uint64_t tops = 0;
    for (int k = 0; k < NCOLS; k++)
        if (s->len[k]) tops |= 1ULL << s->cols[k][s->len[k] - 1];
    uint64_t before_e[52], before_h[52], without_h[52], have_before = 0, have_without = 0;
    for (int p = 0; p < 52; p++) {
        if (home >> p & 1) continue;
        uint64_t kids = s->childmask[p] & ~home & ~KINGS, cand = 0;
        for (uint64_t y = kids; y; y &= y - 1) {
            int c = __builtin_ctzll(y);
            /* another parent that is the top now is always there to go to */
            uint64_t other = 0;
            for (int i = 0; i < s->npar[c]; i++)
                if (s->par[c][i] != p) other |= 1ULL << s->par[c][i];
            if (!(other & tops & ~home)) cand |= 1ULL << c;
        }
        if (__builtin_popcountll(cand) < 2) continue;
        for (uint64_t xs = cand; xs; xs &= xs - 1) {
            int x = __builtin_ctzll(xs);
            if (!(have_before >> x & 1)) {
                before_h[x] = fixpoint(s, x, -1, 0, &before_e[x]);
                have_before |= 1ULL << x;
            }
            int locked = 0;
            for (uint64_t y = cand; y; y &= y - 1) {
                int c = __builtin_ctzll(y), escapes = c != x && (before_h[x] >> c & 1);
                for (int i = 0; i < s->npar[c] && !escapes; i++) {
                    int q = s->par[c][i];
                    escapes = q != p && !(home >> q & 1) && (before_e[x] >> q & 1);
                }
                if (escapes) continue;
                int k = s->col_of[c], h = s->pos_of[c];
                if (!(h > 0 && s->cols[k][h - 1] == p)) { /* not on p now: must it move first? */
                    if (!(have_without >> c & 1)) {
                        without_h[c] = fixpoint(s, -1, c, 0, NULL);
                        have_without |= 1ULL << c;
                    }
                    if (without_h[c] >> x & 1) continue;
                }
                if (++locked == 2) return 1;
            }
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- table */

/* 16-byte slots (the level search's tables of keys it sent) */
static uint64_t *alloc_table(size_t slots) { return alloc_words(2 * slots); }
static void free_table(uint64_t *tt, size_t slots) { free_words(tt, 2 * slots); }

static void table_free(Table *t) { free_words(t->t, t->slots * (size_t)t->words); }

static inline size_t table_limit_of(const Table *t, size_t slots) {
    return (size_t)((double)slots * (slots >= t->max_slots ? TT_LOAD_CAP : TT_LOAD));
}

/* The most 16-byte slots, a power of two from 1024 up, that fit in bytes. */
static size_t slots_within(size_t bytes) {
    size_t slots = 1024;
    while (slots * 2 * 16 <= bytes) slots *= 2;
    return slots;
}

static int table_setup(Table *t, size_t slots) {
    t->words = t->narrow == NARROW_YES ? 1 : 2;
    t->t = alloc_words(slots * (size_t)t->words);
    if (!t->t) return -1;
    t->slots = slots;
    t->mask = slots - 1;
    t->shift = 64 - __builtin_ctzll((unsigned long long)slots);
    t->limit = table_limit_of(t, slots);
    t->count = 0;
    return 0;
}

static void tt_put(uint64_t *tt, size_t mask, int shift, uint64_t a, uint64_t b) {
    size_t i = (size_t)(b >> shift);
    while (tt[2 * i] || tt[2 * i + 1]) i = (i + 1) & mask;
    tt[2 * i] = a;
    tt[2 * i + 1] = b;
}

/* A narrow slot's 56 key bits: those of (b, a) after the first qbits (11 to 63), less
 * those qmask drops. */
static inline uint64_t narrow_q(const Table *t, uint64_t a, uint64_t b) {
    return (((b << t->qbits) | (a >> (64 - t->qbits))) >> 8) & t->qmask;
}

/* Put quotient q at the first free slot from home, within reach: 0, or -1 (none free). */
static int narrow_put(uint64_t *tt, size_t mask, size_t home, uint64_t q) {
    uint64_t w = q << 8 | 1;
    size_t i = home;
    while (tt[i]) {
        if ((w & 0xff) == NARROW_REACH) return -1;
        i = (i + 1) & mask;
        w++;
    }
    tt[i] = w;
    return 0;
}

/* Double a table's mapping of `bytes` where it lies (mremap: the new half is fresh, zeroed
 * memory), or NULL if it cannot (nothing changed). */
static uint64_t *double_mapping(uint64_t *p, size_t bytes) {
#ifdef MREMAP_MAYMOVE
    void *q = mremap(p, bytes, 2 * bytes, MREMAP_MAYMOVE);
    if (q == MAP_FAILED) return NULL;
    advise_huge(q, 2 * bytes);
    return (uint64_t *)q;
#else
    (void)p;
    (void)bytes;
    return NULL;
#endif
}

/* Append the pair (x, y) to a list of pairs that grows: 0, or -1 (out of memory). */
static int pairs_push(uint64_t **list, size_t *n, size_t *cap, uint64_t x, uint64_t y) {
    if (*n == *cap) {
        size_t c = *cap ? *cap * 2 : 1024;
        uint64_t *nl = realloc(*list, c * 16);
        if (!nl) return -1;
        *list = nl;
        *cap = c;
    }
    (*list)[2 * *n] = x;
    (*list)[2 * *n + 1] = y;
    (*n)++;
    return 0;
}

/* Double the table where it lies: mremap() extends the mapping (the new half is fresh,
 * zeroed memory; the old half keeps its pages, so each page of a table is zeroed by the
 * kernel once, not once per doubling), then the entries are rehashed in place. A key's
 * home slot is the top bits of its second word, so an entry at old slot i with old home
 * h has new home 2h or 2h + 1. Walking the old slots from the top down, each entry is
 * taken out and put at the first free slot from its new home h2 when h2 >= i: the slots
 * from i up hold only entries already rehashed (or none), so the probe sees the new table
 * only, and the slots cleared later are all below h2, outside its probe chain. The few
 * others (an old chain that wrapped around the end, h2 < i, or a probe that would wrap
 * around the new end) wait in a side list and go in at the end, when the whole table is
 * the new one. Returns 0 (done), 1 (mremap failed: nothing changed), -1 (out of memory
 * for the side list: entries may be lost, the search must stop). */
static int table_grow_in_place(Table *t) {
    size_t n = t->slots, m = 2 * n;
    uint64_t *tt = double_mapping(t->t, n * 16);
    if (!tt) return 1;
    int old_shift = t->shift, shift = old_shift - 1;
    size_t mask = m - 1, nside = 0, side_cap = 0;
    uint64_t *side = NULL;
    int lost = 0;
    t->t = tt;
    t->slots = m;
    t->mask = mask;
    t->shift = shift;
    t->limit = table_limit_of(t, m);
    for (size_t i = n; i-- > 0;) {
        uint64_t a = tt[2 * i], b = tt[2 * i + 1];
        if (!a && !b) continue;
        tt[2 * i] = tt[2 * i + 1] = 0;
        size_t h = (size_t)(b >> old_shift), h2 = (size_t)(b >> shift), j = h2;
        if (i >= h && h2 >= i) {
            while (j < m && (tt[2 * j] || tt[2 * j + 1])) j++;
            if (j < m) {
                tt[2 * j] = a;
                tt[2 * j + 1] = b;
                continue;
            }
        }
        if (pairs_push(&side, &nside, &side_cap, a, b) < 0) lost = 1;
    }
    for (size_t k = 0; k < nside; k++) tt_put(tt, mask, shift, side[2 * k], side[2 * k + 1]);
    free(side);
    return lost ? -1 : 0;
}

/* The same for a narrow table. An entry's old home is its slot less its distance; the
 * new home's last bit is the next bit of the key, which its quotient holds (the bits
 * after the first qbits; the home has 64 - shift of the key's bits). Same returns, and
 * -1 too when an entry finds no free slot within reach. */
static int narrow_grow_in_place(Table *t) {
    size_t n = t->slots, m = 2 * n;
    int pick = 55 - (64 - t->shift - t->qbits); /* the bit of the quotient the new home takes */
    if (pick < 0 || !((t->qmask >> pick) & 1)) return 1; /* a bit it does not keep */
    uint64_t *tt = double_mapping(t->t, n * 8);
    if (!tt) return 1;
    size_t old_mask = n - 1, mask = m - 1, nside = 0, side_cap = 0;
    uint64_t *side = NULL; /* pairs (new home, quotient) */
    int lost = 0;
    t->t = tt;
    t->slots = m;
    t->mask = mask;
    t->shift--;
    t->limit = table_limit_of(t, m);
    for (size_t i = n; i-- > 0;) {
        uint64_t w = tt[i];
        if (!w) continue;
        tt[i] = 0;
        uint64_t q = w >> 8;
        size_t h = (i - (size_t)((w & 0xff) - 1)) & old_mask, h2 = 2 * h + (size_t)((q >> pick) & 1), j = h2;
        if (i >= h && h2 >= i) {
            while (j < m && tt[j]) j++;
            if (j < m && j - h2 < NARROW_REACH) {
                tt[j] = q << 8 | (j - h2 + 1);
                continue;
            }
        }
        if (pairs_push(&side, &nside, &side_cap, h2, q) < 0) lost = 1;
    }
    for (size_t k = 0; k < nside; k++)
        if (narrow_put(tt, mask, (size_t)side[2 * k], side[2 * k + 1]) < 0) lost = 1;
    free(side);
    return lost ? -1 : 0;
}

/* Place quotient q (home h) at the first free slot from h below `end` (the slots from
 * `end` up still hold 16-byte entries): 1 placed, 0 it would need a slot from `end` up,
 * -1 no free slot within reach. */
static int narrow_put_below(uint64_t *tt, size_t end, size_t h, uint64_t q) {
    uint64_t w = q << 8 | 1;
    size_t i = h;
    for (; i < end && tt[i]; i++, w++)
        if ((w & 0xff) == NARROW_REACH) return -1;
    if (i == end) return 0;
    tt[i] = w;
    return 1;
}

/* A wide table of n slots becomes a narrow one of 2n in the same bytes, in place: wide
 * slot i is narrow slots 2i and 2i + 1. The wide slots are read from the bottom up, each
 * cleared as it is read, and its entry goes at the first free narrow slot from its new
 * home (2h or 2h + 1, h its old home) below 2i + 2, the slots not read yet: a probe never
 * looks at a 16-byte entry. It always finds one: a full run of narrow slots from s to
 * 2i + 1 would hold 2i + 2 - s entries of old home s/2 or more, from the i + 1 - s/2 wide
 * slots read, so s = 2i + 1, the current entry's own new home when it is free. An entry
 * whose old chain wrapped around the end (its slot is below its home) waits in a side
 * list and goes in at the end, when the whole table is narrow. No second mapping: the
 * peak stays the wide table's bytes, and no fresh page is touched. Returns 0 (done), 1
 * (not done: no memory for the side list, the table unchanged and still wide), -1 (no
 * memory for the side list mid-way, or an entry found no free slot within reach: entries
 * may be lost, the search must stop). */
static int table_narrow(Table *t) {
    size_t n = t->slots, m = 2 * n, nlate = 0, cap = 1024;
    uint64_t *tt = t->t, *late = malloc(cap * 16); /* pairs (new home, quotient) */
    int shift = t->shift - 1, lost = 0;
    if (!late) return 1;
    t->qbits = 64 - shift;
    for (size_t i = 0; i < n; i++) {
        uint64_t a = tt[2 * i], b = tt[2 * i + 1];
        if (!a && !b) continue;
        tt[2 * i] = tt[2 * i + 1] = 0;
        size_t h = (size_t)(b >> shift);
        uint64_t q = narrow_q(t, a, b);
        int r = h / 2 > i ? 0 : narrow_put_below(tt, 2 * i + 2, h, q);
        if (r < 0 || (r == 0 && pairs_push(&late, &nlate, &cap, h, q) < 0)) lost = 1;
    }
    for (size_t k = 0; k < nlate; k++)
        if (narrow_put(tt, m - 1, (size_t)late[2 * k], late[2 * k + 1]) < 0) lost = 1;
    free(late);
    t->narrow = NARROW_YES;
    t->words = 1;
    t->max_slots *= 2; /* the same bytes hold twice the slots */
    t->slots = m;
    t->mask = m - 1;
    t->shift = shift;
    t->limit = table_limit_of(t, m);
    return lost ? -1 : 0;
}

/* Double the table (up to its cap): only the memory a search needs is touched. With a
 * search s, a large rehash is not started once s is out of time; without (NULL), no
 * clock. A table that may narrow does so when it doubles to NARROW_SLOTS. */
static int table_grow(Table *t, S *s) {
    size_t old_slots = t->slots, count = t->count;
    uint64_t *old = t->t;
    /* going narrow takes no more bytes: a table at its cap may still do it */
    int narrows = t->narrow == NARROW_MAY && old_slots * 2 >= t->narrow_at;
    if (!narrows && old_slots * 2 > t->max_slots) return -1;
    if (s && old_slots > 0xFFFFF && !s->grow_aborted) {
        /* a large rehash is not started out of time (nor stopped once started) */
        int out = clock_out(s);
        if (out != R_NONE) {
            s->reason = out;
            s->grow_aborted = 1; /* a resumed search must make progress */
            return -2;
        }
    }
    if (narrows) {
        int r = table_narrow(t);
        if (r < 0) return -1;
        if (r == 0) {
            if (s) s->grow_aborted = 0;
            return 0;
        }
        t->narrow = NARROW_NO;
        if (old_slots * 2 > t->max_slots) return -1;
    }
    int g = t->narrow == NARROW_YES ? narrow_grow_in_place(t) : table_grow_in_place(t);
    if (g <= 0) {
        if (s) s->grow_aborted = 0;
        return g;
    }
    if (t->narrow == NARROW_YES) return -1; /* mremap failed: a narrow table stops there */
    /* mremap failed: a new table beside the old one and a copy, if both fit the cap */
    if (old_slots * 3 * 16 > t->cap_bytes) return -1;
    if (table_setup(t, old_slots * 2) < 0) {
        t->t = old;
        t->slots = old_slots;
        return -1;
    }
    for (size_t i = 0; i < old_slots; i++) {
        if (old[2 * i] || old[2 * i + 1]) tt_put(t->t, t->mask, t->shift, old[2 * i], old[2 * i + 1]);
        int out = s && (i & 0xFFFFF) == 0xFFFFF && !s->grow_aborted ? clock_out(s) : R_NONE;
        if (out != R_NONE) {
            /* out of time while rehashing a large table: keep the old one and stop */
            free_table(t->t, t->slots);
            t->t = old;
            t->slots = old_slots;
            t->mask = old_slots - 1;
            t->shift = 64 - __builtin_ctzll((unsigned long long)old_slots);
            t->limit = table_limit_of(t, old_slots);
            t->count = count;
            s->reason = out;
            s->grow_aborted = 1; /* a resumed search must make progress */
            return -2;
        }
    }
    if (s) s->grow_aborted = 0;
    t->count = count;
    free_table(old, old_slots);
    return 0;
}

/* Look the key up in a narrow table: 1 there, 0 not there (*at: the free slot where it
 * would go, *word: what that slot would hold), -1 not there and no free slot in reach. */
static inline int narrow_find(const Table *t, uint64_t a, uint64_t b, size_t *at, uint64_t *word) {
    size_t i = (size_t)(b >> t->shift);
    uint64_t want = narrow_q(t, a, b) << 8 | 1;
    for (;;) {
        uint64_t w = t->t[i];
        if (!w) {
            *at = i;
            *word = want;
            return 0;
        }
        if (w == want) return 1;
        if ((want & 0xff) == NARROW_REACH) return -1;
        i = (i + 1) & t->mask;
        want++;
    }
}

static int narrow_insert(Table *t, S *s, uint64_t a, uint64_t b) {
    size_t i = 0;
    uint64_t w = 0;
    int f = narrow_find(t, a, b, &i, &w);
    if (f == 1) return 0;
    if (f < 0 || t->count >= t->limit) {
        int g = table_grow(t, s);
        if (g < 0) return g;
        if (narrow_find(t, a, b, &i, &w) != 0) return -1; /* still out of reach */
    }
    t->t[i] = w;
    t->count++;
    return 1;
}

/* Insert the key (a, b) (never (0, 0)): 1 inserted (new), 0 already there, -1 full (at
 * the cap), -2 out of time while growing (s->reason is set). */
static int table_insert(Table *t, S *s, uint64_t a, uint64_t b) {
    if (t->narrow == NARROW_YES) return narrow_insert(t, s, a, b);
    size_t i = (size_t)(b >> t->shift);
    while (t->t[2 * i] || t->t[2 * i + 1]) {
        if (t->t[2 * i] == a && t->t[2 * i + 1] == b) return 0;
        i = (i + 1) & t->mask;
    }
    if (t->count >= t->limit) {
        int g = table_grow(t, s);
        if (g < 0) return g;
        if (t->narrow == NARROW_YES) return narrow_insert(t, s, a, b);
        i = (size_t)(b >> t->shift);
        while (t->t[2 * i] || t->t[2 * i + 1]) i = (i + 1) & t->mask;
    }
    t->t[2 * i] = a;
    t->t[2 * i + 1] = b;
    t->count++;
    return 1;
}

static int table_contains(const Table *t, uint64_t a, uint64_t b) {
    if (t->narrow == NARROW_YES) {
        size_t i;
        uint64_t w;
        return narrow_find(t, a, b, &i, &w) == 1;
    }
    size_t i = (size_t)(b >> t->shift);
    while (t->t[2 * i] || t->t[2 * i + 1]) {
        if (t->t[2 * i] == a && t->t[2 * i + 1] == b) return 1;
        i = (i + 1) & t->mask;
    }
    return 0;
}

/* Where the key's probe starts (to prefetch it). */
static inline const uint64_t *table_home(const Table *t, uint64_t b) {
    return &t->t[(size_t)(b >> t->shift) * (size_t)t->words];
}

/* ---------------------------------------------------------------- twin classes (F_MERGE) */

static void pop_to(S *s, size_t mark);
static void move_key(S *s, int move, uint64_t *pa, uint64_t *pb);

/* Room for `need` elements of `size` bytes in *p (0, or -1: out of memory). */
static int reserve(void **p, size_t *cap, size_t need, size_t size) {
    if (need <= *cap) return 0;
    size_t n = *cap ? *cap : 256;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * size);
    if (!q) return -1;
    *p = q;
    *cap = n;
    return 0;
}

/* A flip: the move of a pile whose lowest card lies on a face-up parent onto its other
 * parent, the top of another column. */
static inline int is_flip(const S *s, int move) {
    int c = move >> 3, d = move & 7;
    int k = s->col_of[c], h = s->pos_of[c];
    if (d == FOUND_DEST || k == HOME || h == 0 || h - 1 < s->down[k] || !s->len[d]) return 0;
    return s->fits[c][s->cols[k][h - 1]] && s->fits[c][s->cols[d][s->len[d] - 1]];
}

/* The class key of the current position: its raw key after flipping, lowest card first,
 * every pile whose other parent is lower and the top of another column onto it, until
 * none is left (0, or -1: out of memory). Positions with one key flip to one position,
 * so they are in one class.
 *
 * The flips are walked without making them while each is between two columns no earlier
 * one of the walk touched (below); half the children of a long search need two or more. */
static int class_key(S *s, uint64_t *pa, uint64_t *pb) {
    /* the flips made (each card flips once at most: onto its lower parent), to undo */
    int made_x[52], made_k[52], made_h[52], nmade = 0;
    uint64_t a, b;
    for (;;) {
        /* the piles on a parent whose other parent may be a top, lowest card first (a
         * pile's lowest card y lies on one parent, so it has one flip at most: onto the
         * other) */
        uint64_t may = 0;
        for (int k = 0; k < NCOLS; k++)
            if (s->len[k]) may |= s->lowchild[s->cols[k][s->len[k] - 1]];
        /* y lies on a parent and its lower parent t is a top (Yukon: classes are Yukon's
         * alone, and every card but a King has two parents), so nothing lies on t and y
         * lies on the higher one: its flip is onto t, unless t is in y's column */
        may &= s->on_parent;
        int n = 0, ys[4 * NCOLS], ts[4 * NCOLS], ks[4 * NCOLS]; /* a walk adds one at most per flip */
        for (; may; may &= may - 1) {
            int y = __builtin_ctzll(may), t = s->par[y][0], k = s->col_of[t];
            if (k == s->col_of[y]) continue;
            ys[n] = y;
            ts[n] = t;
            ks[n++] = k;
        }
        /* The flips, first to last, without making them while each is between two
         * columns no earlier one touched: the flip of y (the pile y..w) off r onto q, the
         * top of column B, changes only y's key pair; after it q is covered, r (whose
         * children, y and its twin, have no free parent) and w are the tops of their
         * columns, so the list of flips loses those onto q and those onto w of cards in B
         * (w is in B now), those onto w go to column B, and it gains those onto w of
         * cards under r, face up on their other parent (a card has one flip at most, and
         * none of these had one: w was in their column). A flip between touched columns
         * is made (with those before it), and the list found again. */
        a = s->ha;
        b = s->hb;
        uint16_t walked[NCOLS];
        int nw = 0, touched = 0;
        while (n) {
            int y = ys[0], q = ts[0], B = ks[0], A = s->col_of[y];
            if ((touched >> A & 1) || (touched >> B & 1)) break;
            int h = s->pos_of[y], w = s->cols[A][s->len[A] - 1];
            a ^= s->flipkey[y][0];
            b ^= s->flipkey[y][1];
            walked[nw++] = (uint16_t)(y << 3 | B);
            touched |= 1 << A | 1 << B;
            int m = 0;
            for (int j = 1; j < n; j++) {
                if (ts[j] == q || (ts[j] == w && s->col_of[ys[j]] == B)) continue;
                ys[m] = ys[j];
                ts[m] = ts[j];
                ks[m++] = ts[j] == w ? B : ks[j];
            }
            n = m;
            for (uint64_t zs = s->childmask[w]; zs; zs &= zs - 1) {
                int z = __builtin_ctzll(zs), hz = s->pos_of[z];
                if (!(s->col_of[z] == A && hz < h && hz > s->down[A] && s->cols[A][hz - 1] > w
                      && s->fits[z][s->cols[A][hz - 1]]))
                    continue;
                int at = n;
                while (at > 0 && ys[at - 1] > z) {
                    ys[at] = ys[at - 1];
                    ts[at] = ts[at - 1];
                    ks[at] = ks[at - 1];
                    at--;
                }
                ys[at] = z;
                ts[at] = w;
                ks[at] = B;
                n++;
            }
        }
        if (!n) break;
        for (int i = 0; i < nw; i++) {
            int x = walked[i] >> 3;
            made_x[nmade] = x;
            made_k[nmade] = s->col_of[x];
            made_h[nmade++] = flip_make(s, x, walked[i] & 7);
        }
    }
    while (nmade--) flip_unmake(s, made_x[nmade], made_k[nmade], made_h[nmade]);
    if (!a && !b) a = 1;
    *pa = a;
    *pb = b;
    return 0;
}

/* The flips of the current position, in gen_moves' order. */
static int gen_flips(const S *s, uint16_t *out) {
    int n = 0;
    for (int k = 0; k < NCOLS; k++) {
        if (!s->len[k]) continue;
        int t = s->cols[k][s->len[k] - 1];
        /* child[t] lists t's children by card number, as this loop takes them */
        for (uint64_t ys = s->childmask[t] & s->on_parent; ys; ys &= ys - 1) {
            int y = __builtin_ctzll(ys);
            if (s->col_of[y] != k) out[n++] = (uint16_t)(y << 3 | k);
        }
    }
    return n;
}

/* The moves that a member reached by the flip of x off r needs, in gen_moves' order: a
 * card onto r, r home, or r (or a card under it, carrying it) onto the top of x's
 * column. Any other move leads where the same move from the member before the flip, then
 * the flip, leads (docs/solver.md, "Twin classes"). Flips are left to gen_flips. */
static int member_moves(S *s, int r, int x, uint16_t *out) {
    int n = 0, keys[16], ka = s->col_of[r], kb = s->col_of[x];
    for (int pass = 0; pass < 2; pass++) {
        int k = (pass == 0) == (ka < kb) ? ka : kb;
        int t = s->cols[k][s->len[k] - 1];
        if (k == ka && s->found[suit(r)] == rank0(r)) out[n++] = (uint16_t)(r << 3 | FOUND_DEST);
        for (int i = 0; i < s->nchild[t]; i++) {
            int y = s->child[t][i], ky = s->col_of[y];
            if (ky == HOME || ky == k || s->pos_of[y] < s->down[ky]) continue;
            if (k == kb && (ky != ka || s->pos_of[y] > s->pos_of[r])) continue;
            if (!is_flip(s, y << 3 | k)) out[n++] = (uint16_t)(y << 3 | k);
        }
    }
    if (s->takeback)
        for (int u = 0; u < 4; u++) {
            int c = u * 13 + s->found[u] - 1;
            if (s->found[u] && s->fits[c][r]) out[n++] = (uint16_t)(c << 3 | ka);
        }
    for (int i = 0; i < n; i++) keys[i] = order_key(s, out[i]);
    sort_moves(out, keys, n);
    return n;
}

/* The class key of the position the move leads to, found by making the move (and its
 * auto-foundation moves) and undoing it: 1, 0 when it wins (no key), -1 out of memory. */
static int made_key(S *s, int move, uint64_t *pa, uint64_t *pb) {
    size_t mark = s->log_len;
    int src = move_source(s, move);
    if (src < 0) { /* a move home or a take-back */
        int rc = push_move(s, move) < 0 || apply_autos(s, src) < 0 ? -1 : s->nhome == 52 ? 0 : class_key(s, pa, pb) < 0 ? -1 : 1;
        pop_to(s, mark);
        return rc;
    }
    /* between columns: made without the log (the foundations are as they were, so it
     * cannot win by itself) */
    int c = move >> 3, turned, h = pile_make(s, c, move & 7, &turned);
    int autos = (s->flags & F_AUTO) && s->len[src] && safe_home(s, s->cols[src][s->len[src] - 1]);
    int rc = autos && apply_autos(s, src) < 0 ? -1 : s->nhome == 52 ? 0 : class_key(s, pa, pb) < 0 ? -1 : 1;
    pop_to(s, mark);
    pile_unmake(s, c, src, h, turned);
    return rc;
}

/* A member's raw key into the set of the class being closed: 1 new, 0 already there, -1
 * out of memory. */
static int member_add(S *s, uint64_t a, uint64_t b) {
    if (2 * (s->nkeys + 1) > s->mslots) { /* grow the set, and put the keys in again */
        uint32_t n = s->mslots ? 2 * s->mslots : 64;
        uint32_t *slot = realloc(s->mslot, n * sizeof(uint32_t));
        if (slot) s->mslot = slot;
        uint32_t *stamp = slot ? realloc(s->mstamp, n * sizeof(uint32_t)) : NULL;
        if (!stamp) return -1;
        s->mstamp = stamp;
        memset(stamp, 0, n * sizeof(uint32_t));
        s->mslots = n;
        s->mgen = 1;
        for (uint32_t j = 0; j < s->nkeys; j++) {
            uint32_t i = (uint32_t)s->mkey[2 * j + 1] & (n - 1);
            while (s->mstamp[i] == s->mgen) i = (i + 1) & (n - 1);
            s->mstamp[i] = s->mgen;
            s->mslot[i] = j;
        }
    }
    uint32_t mask = s->mslots - 1, i = (uint32_t)b & mask;
    for (; s->mstamp[i] == s->mgen; i = (i + 1) & mask) {
        uint32_t j = s->mslot[i];
        if (s->mkey[2 * j] == a && s->mkey[2 * j + 1] == b) return 0;
    }
    if (reserve((void **)&s->mkey, &s->mkey_cap, 2 * (s->nkeys + 1), 8) < 0) return -1;
    s->mkey[2 * s->nkeys] = a;
    s->mkey[2 * s->nkeys + 1] = b;
    s->mstamp[i] = s->mgen;
    s->mslot[i] = (uint32_t)s->nkeys++;
    return 1;
}

/* Empty the set of members' keys. */
static void member_clear(S *s) {
    s->nkeys = 0;
    if (s->mslots && ++s->mgen == 0) {
        memset(s->mstamp, 0, s->mslots * sizeof(uint32_t));
        s->mgen = 1;
    }
}

/* The members of the class reachable from member m (the current position) by flips,
 * depth first, each new one with the moves it needs (0, or -1: out of memory). back (-1:
 * none) is the flip that undoes the one that reached m: it leads to a member already
 * in the set, so it is not even looked up. */
static int close_class(S *s, size_t base, uint32_t m, int back) {
    uint16_t flips[MAXMOVES];
    int nf = gen_flips(s, flips);
    for (int i = 0; i < nf; i++) {
        if (flips[i] == back) continue; /* back to the member m was reached from */
        /* x lies on one of its two parents, r, and goes onto the other, q */
        int x = flips[i] >> 3, d = flips[i] & 7, q = s->cols[d][s->len[d] - 1];
        int r = s->par[x][0] ^ s->par[x][1] ^ q, undo = x << 3 | s->col_of[x];
        /* move_key for a flip: only x's (card, under) pair changes */
        uint64_t a = s->ha ^ s->flipkey[x][0], b = s->hb ^ s->flipkey[x][1];
        if (!a && !b) a = 1;
        int added = member_add(s, a, b);
        if (added <= 0) {
            if (added < 0) return -1;
            continue;
        }
        if (reserve((void **)&s->mem, &s->mem_cap, s->mem_len + 1, sizeof(Member)) < 0) return -1;
        uint32_t id = (uint32_t)(s->mem_len - base);
        s->mem[s->mem_len++] = (Member){m, flips[i]};
        s->members++;
        s->nodes++; /* a position searched, like its class's entry */
        /* the flip is made without the log: everything logged below is undone first */
        int from = s->col_of[x], h = flip_make(s, x, flips[i] & 7), rc = 0;
        uint16_t mv[16];
        int nm = member_moves(s, r, x, mv);
        if (reserve((void **)&s->cmv, &s->cmv_cap, s->cmv_len + (size_t)nm, sizeof(MemberMove)) < 0) rc = -1;
        for (int j = 0; j < nm && rc == 0; j++) {
            MemberMove *cm = &s->cmv[s->cmv_len++];
            cm->member = id;
            cm->move = mv[j];
            int kd = made_key(s, mv[j], &cm->a, &cm->b);
            if (kd < 0) rc = -1;
            cm->keyed = (uint8_t)kd;
            if (kd > 0) __builtin_prefetch(table_home(&s->tt, cm->b));
        }
        if (rc == 0) rc = close_class(s, base, id, undo);
        flip_unmake(s, x, from, h);
        if (rc < 0) return -1;
    }
    return 0;
}

/* Make the flips that lead from a class's entry to its member m. */
static int go_to_member(S *s, size_t base, uint32_t m) {
    if (!m) return 0;
    Member e = s->mem[base + m];
    if (go_to_member(s, base, e.parent) < 0) return -1;
    return push_move(s, e.flip);
}

/* The current position's key into the search's table (table_insert's answers). */
static int tt_insert(S *s) {
    uint64_t a = s->ha, b = s->hb;
    if (!a && !b) a = 1;
    if ((s->flags & F_MERGE) && class_key(s, &a, &b) < 0) return -1;
    return table_insert(&s->tt, s, a, b);
}

/* ---------------------------------------------------------------- search */

/* The key of the position the tableau move `move` leads to, found without making the
 * move (1), or 0 for a foundation move or when the move may trigger an auto-foundation
 * move. A tableau move leaves the foundations alone, so the only auto-foundation move it
 * can trigger is of the card it uncovers in its source column (every other top card was
 * already unsafe: the position was closed under the rule); when that card is not safe,
 * the child's key is the parent's with the moved card's (card, under) pair changed and,
 * if a card turns, its face-down value removed: exactly what push_move() does to it. */
static void move_key(S *s, int move, uint64_t *pa, uint64_t *pb);

static int child_key(S *s, int move, uint64_t *pa, uint64_t *pb) {
    int c = move >> 3, d = move & 7;
    int k = s->col_of[c], h = s->pos_of[c];
    if (d == FOUND_DEST || k == HOME) return 0;
    if (h > 0 && (s->flags & F_AUTO) && safe_home(s, s->cols[k][h - 1])) return 0;
    move_key(s, move, pa, pb);
    return 1;
}

/* The key of the position the move of a tableau card leads to (no auto-foundation
 * move), as the table stores it: the moved card's (card, under) pair changes, or goes
 * for a move home, and a card it uncovers loses its face-down value. */
static void move_key(S *s, int move, uint64_t *pa, uint64_t *pb) {
    int c = move >> 3, d = move & 7;
    int k = s->col_of[c], h = s->pos_of[c], from = below_key(s, k, h);
    uint64_t a = s->ha ^ Z[c][from][0], b = s->hb ^ Z[c][from][1];
    if (d != FOUND_DEST) {
        int to = below_key(s, d, s->len[d]);
        a ^= Z[c][to][0];
        b ^= Z[c][to][1];
    }
    if (h > 0 && h == s->down[k]) {
        a ^= D[s->cols[k][h - 1]][0];
        b ^= D[s->cols[k][h - 1]][1];
    }
    if (!a && !b) a = 1;
    *pa = a;
    *pb = b;
}

/* A new frame on top of the stack (NULL: out of memory). */
static Frame *new_frame(S *s) {
    if (s->nframes == s->frames_cap) {
        size_t cap = s->frames_cap ? s->frames_cap * 2 : 256;
        Frame *nf = realloc(s->frames, cap * sizeof(Frame));
        if (!nf) return NULL;
        s->frames = nf;
        s->frames_cap = cap;
    }
    return &s->frames[s->nframes++];
}

static int push_frame(S *s) {
    Frame *f = new_frame(s);
    if (!f) return -1;
    /* a lost position is a leaf: its moves are never generated */
    int lost = (s->flags & F_STUCK) && !between_parents(s) && never_home(s);
    if (!lost && s->nframes == 1 && (s->flags & F_TWIN)) lost = twin_lock(s);
    f->n = lost ? 0 : gen_moves(s, f->moves);
    f->mem_base = s->mem_len;
    f->mv_base = f->mv_idx = f->mv_end = s->cmv_len;
    if ((s->flags & F_MERGE) && f->n) {
        /* a class's entry: its flips lead to its other members, whose moves follow */
        int n = 0;
        for (int i = 0; i < f->n; i++)
            if (!is_flip(s, f->moves[i])) f->moves[n++] = f->moves[i];
        if (n < f->n) {
            member_clear(s);
            if (member_add(s, s->ha || s->hb ? s->ha : 1, s->hb) < 0 ||
                reserve((void **)&s->mem, &s->mem_cap, s->mem_len + 1, sizeof(Member)) < 0)
                return -1;
            s->mem[s->mem_len++] = (Member){0, 0};
            if (close_class(s, f->mem_base, 0, -1) < 0) return -1;
            f->mv_end = s->cmv_len;
        }
        f->n = n;
    }
    /* Look every child up now, all at once: prefetch the table slot of each child (its
     * key before any auto-foundation move), then probe the tableau children whose key
     * is known without making the move (see child_key). The misses then overlap instead
     * of coming one by one, and before the subtree of an earlier child has evicted the
     * slots from the cache. An entry is never removed, so a child found now is still
     * there at its turn; one not found now is checked again then (an earlier child's
     * subtree may reach it). */
    uint64_t *ka = f->ka, *kb = f->kb;
    uint8_t *has_key = f->keyed;
    for (int i = 0; i < f->n; i++) {
        int move = f->moves[i], c = move >> 3, d = move & 7;
        f->known[i] = 0;
        if (s->flags & F_MERGE) {
            int rc = made_key(s, move, &ka[i], &kb[i]);
            if (rc < 0) return -1;
            has_key[i] = (uint8_t)rc;
        } else
            has_key[i] = (uint8_t)child_key(s, move, &ka[i], &kb[i]);
        uint64_t b = kb[i];
        if (!has_key[i] && s->col_of[c] == HOME) {
            b = s->hb ^ Z[c][below_key(s, d, s->len[d])][1];
        } else if (!has_key[i]) {
            int k = s->col_of[c], h = s->pos_of[c];
            b = s->hb ^ Z[c][below_key(s, k, h)][1];
            if (d != FOUND_DEST) b ^= Z[c][below_key(s, d, s->len[d])][1];
            if (h > 0 && h == s->down[k]) b ^= D[s->cols[k][h - 1]][1];
        }
        __builtin_prefetch(table_home(&s->tt, b));
    }
    for (int i = 0; i < f->n; i++)
        if (has_key[i]) f->known[i] = (uint8_t)table_contains(&s->tt, ka[i], kb[i]);
    /* the members' moves whose classes are already in the table are dropped */
    size_t keep = f->mv_base;
    for (size_t j = f->mv_base; j < f->mv_end; j++)
        if (!s->cmv[j].keyed || !table_contains(&s->tt, s->cmv[j].a, s->cmv[j].b)) s->cmv[keep++] = s->cmv[j];
    f->mv_end = s->cmv_len = keep;
    f->idx = 0;
    f->mark = s->log_len;
    return 0;
}

static int budget_out(S *s) {
    if (s->max_nodes && s->nodes >= s->max_nodes) {
        s->reason = R_NODES;
        return 1;
    }
    if ((s->nodes & 1023) == 0 && (s->deadline > 0 || s->wall_deadline > 0)) {
        int out = clock_out(s);
        if (out != R_NONE) {
            s->reason = out;
            return 1;
        }
    }
    return 0;
}

/* Undo the moves back to log length mark. */
static void pop_to(S *s, size_t mark) {
    while (s->log_len > mark) pop_move(s);
}

static int fail_memory(S *s) {
    s->reason = R_MEMORY;
    s->finished = 3;
    return 2;
}

/* 0 solved, 1 exhausted, 2 budget out (s->reason). A search stopped by a node or time
 * budget can be resumed by calling search() again: it continues exactly where it stopped,
 * with the same table, so a search run in slices visits the same positions in the same
 * order as one run in one go. */
static int search(S *s) {
    if (s->finished) {
        if (s->finished == 3) s->reason = R_MEMORY;
        return s->finished - 1;
    }
    if (!s->started) {
        if (apply_autos(s, -1) < 0) return fail_memory(s);
        if (s->nhome == 52) {
            s->finished = 1;
            return 0;
        }
        int r0 = tt_insert(s);
        if (r0 == -1) return fail_memory(s);
        if (r0 < 0) {
            pop_to(s, 0);
            return 2;
        }
        s->nodes++;
        s->started = 1;
        s->pending_frame = 1;
    }
    if (s->pending_frame) {
        if (push_frame(s) < 0) return fail_memory(s);
        s->pending_frame = 0;
    }
    while (s->nframes) {
        Frame *f = &s->frames[s->nframes - 1];
        int move, member = f->idx >= f->n && f->mv_idx < f->mv_end;
        size_t mark = s->log_len;
        int keyed = 0; /* F_MERGE: the child's class key ka, kb is known from push_frame */
        uint64_t ka = 0, kb = 0;
        if (member) { /* a move of one of the class's other members */
            MemberMove cm = s->cmv[f->mv_idx++];
            if (cm.keyed) {
                if (table_contains(&s->tt, cm.a, cm.b)) continue;
                keyed = 1, ka = cm.a, kb = cm.b;
            }
            if (go_to_member(s, f->mem_base, cm.member) < 0) return fail_memory(s);
            move = cm.move;
        } else if (f->idx >= f->n) {
            pop_to(s, f->mark);
            s->mem_len = f->mem_base;
            s->cmv_len = f->mv_base;
            s->nframes--;
            /* undo the move that led here */
            if (s->nframes) pop_to(s, s->frames[s->nframes - 1].mark);
            continue;
        } else if (f->known[f->idx]) {
            f->idx++;
            continue;
        } else {
            int i = f->idx;
            move = f->moves[f->idx++];
            if (f->keyed[i]) {
                if (table_contains(&s->tt, f->ka[i], f->kb[i])) continue;
                keyed = (s->flags & F_MERGE) != 0, ka = f->ka[i], kb = f->kb[i];
            }
        }
        int src = move_source(s, move);
        if (push_move(s, move) < 0 || apply_autos(s, src) < 0) return fail_memory(s);
        if (s->nhome == 52) {
            s->finished = 1;
            return 0;
        }
        int r = keyed ? table_insert(&s->tt, s, ka, kb) : tt_insert(s);
        if (r == -1) return fail_memory(s);
        if (r < 0) {
            /* out of time while growing the table: try this move again on resume */
            pop_to(s, mark);
            if (member)
                f->mv_idx--;
            else
                f->idx--;
            return 2;
        }
        if (r == 0) {
            pop_to(s, mark);
            continue;
        }
        s->nodes++;
        if (budget_out(s)) {
            s->pending_frame = 1;
            return 2;
        }
        if (push_frame(s) < 0) return fail_memory(s);
    }
    s->finished = 2;
    return 1;
}

/* ---------------------------------------------------------------- Python glue */

static int read_position(S *s, PyObject *columns, PyObject *down, PyObject *found) {
    int seen[52] = {0};
    PyObject *cf = PySequence_Fast(columns, "columns must be a sequence of 7 sequences");
    if (!cf) return -1;
    if (PySequence_Fast_GET_SIZE(cf) != NCOLS) {
        Py_DECREF(cf);
        PyErr_SetString(PyExc_ValueError, "columns must hold exactly 7 columns");
        return -1;
    }
    for (int k = 0; k < NCOLS; k++) {
        PyObject *col = PySequence_Fast(PySequence_Fast_GET_ITEM(cf, k), "a column must be a sequence of cards");
        if (!col) { Py_DECREF(cf); return -1; }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(col);
        if (n > 52) {
            Py_DECREF(col); Py_DECREF(cf);
            PyErr_SetString(PyExc_ValueError, "a column holds at most 52 cards");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long v;
            if (read_int(PySequence_Fast_GET_ITEM(col, i), 0, 51, "a card", &v) < 0) {
                Py_DECREF(col); Py_DECREF(cf);
                return -1;
            }
            if (seen[v]) {
                Py_DECREF(col); Py_DECREF(cf);
                PyErr_Format(PyExc_ValueError, "card %ld appears twice", v);
                return -1;
            }
            seen[v] = 1;
            s->cols[k][i] = (uint8_t)v;
            s->col_of[v] = (int8_t)k;
            s->pos_of[v] = (int8_t)i;
        }
        s->len[k] = (int)n;
        Py_DECREF(col);
    }
    Py_DECREF(cf);
    PyObject *df = PySequence_Fast(down, "down must be a sequence of 7 ints");
    if (!df) return -1;
    if (PySequence_Fast_GET_SIZE(df) != NCOLS) {
        Py_DECREF(df);
        PyErr_SetString(PyExc_ValueError, "down must hold 7 counts");
        return -1;
    }
    for (int k = 0; k < NCOLS; k++) {
        long v;
        if (read_int(PySequence_Fast_GET_ITEM(df, k), 0, 52, "a face-down count", &v) < 0) { Py_DECREF(df); return -1; }
        if (v > s->len[k] || (s->len[k] && v == s->len[k])) {
            Py_DECREF(df);
            PyErr_Format(PyExc_ValueError, "column %d cannot have %ld face-down cards", k + 1, v);
            return -1;
        }
        s->down[k] = (int)v;
    }
    Py_DECREF(df);
    PyObject *ff = PySequence_Fast(found, "found must be a sequence of 4 ints");
    if (!ff) return -1;
    if (PySequence_Fast_GET_SIZE(ff) != 4) {
        Py_DECREF(ff);
        PyErr_SetString(PyExc_ValueError, "found must hold 4 counts");
        return -1;
    }
    s->nhome = 0;
    for (int u = 0; u < 4; u++) {
        long v;
        if (read_int(PySequence_Fast_GET_ITEM(ff, u), 0, 13, "a foundation count", &v) < 0) { Py_DECREF(ff); return -1; }
        s->found[u] = (int)v;
        s->nhome += (int)v;
        for (int r = 0; r < v; r++) {
            int c = u * 13 + r;
            if (seen[c]) {
                Py_DECREF(ff);
                PyErr_Format(PyExc_ValueError, "card %d is both home and in the tableau", c);
                return -1;
            }
            seen[c] = 1;
            s->col_of[c] = HOME;
            s->pos_of[c] = 0;
        }
    }
    Py_DECREF(ff);
    for (int c = 0; c < 52; c++) {
        if (!seen[c]) {
            PyErr_Format(PyExc_ValueError, "card %d is missing: a position holds all 52 cards", c);
            return -1;
        }
    }
    return 0;
}

/* The key of the position, from scratch. */
static void hash_position(S *s) {
    s->ha = s->hb = 0;
    s->on_parent = 0;
    for (int k = 0; k < NCOLS; k++) {
        for (int h = 0; h < s->len[k]; h++) {
            int c = s->cols[k][h];
            if (h > s->down[k] && s->fits[c][s->cols[k][h - 1]]) s->on_parent |= 1ULL << c;
            hash_card(s, c, below_key(s, k, h));
            if (h < s->down[k]) {
                s->ha ^= D[c][0];
                s->hb ^= D[c][1];
            }
        }
    }
}

static void setup_rules(S *s) {
    for (int c = 0; c < 52; c++) {
        s->nchild[c] = 0;
        for (int p = 0; p < 52; p++) s->fits[c][p] = (uint8_t)card_fits(s->variant, c, p);
    }
    for (int p = 0; p < 52; p++)
        for (int c = 0; c < 52; c++)
            if (s->fits[c][p]) s->child[p][s->nchild[p]++] = (uint8_t)c;
    for (int c = 0; c < 52; c++) {
        s->npar[c] = 0;
        for (int p = 0; p < 52; p++) {
            s->pidx[c][p] = -1;
            if (s->fits[c][p]) {
                s->pidx[c][p] = (int8_t)s->npar[c];
                s->par[c][s->npar[c]++] = (uint8_t)p;
                s->childmask[p] |= 1ULL << c;
            }
        }
    }
    for (int c = 0; c < 52; c++) s->lowchild[c] = 0;
    for (int c = 0; c < 52; c++)
        if (s->npar[c] == 2) {
            s->lowchild[s->par[c][0]] |= 1ULL << c; /* par[c] is in card order */
            for (int w = 0; w < 2; w++) s->flipkey[c][w] = Z[c][s->par[c][0]][w] ^ Z[c][s->par[c][1]][w];
        }
    hash_position(s);
}

static void free_search(S *s) {
    if (!s) return;
    free(s->mem);
    free(s->cmv);
    free(s->mkey);
    free(s->mslot);
    free(s->mstamp);
    table_free(&s->tt);
    free(s->log);
    free(s->frames);
    free(s);
}

/* A new search of the position (NULL with an exception set on bad input). The table
 * starts at the size expect_nodes positions need and doubles up to the memory cap. */
static S *new_search(int variant, PyObject *columns, PyObject *down, PyObject *found, int flags,
                     Py_ssize_t memory_mb, unsigned long long seed, int randomize, unsigned long long expect_nodes,
                     int takeback, size_t narrow_at, int narrow_bits) {
    if (variant < 0 || variant >= V_COUNT) {
        PyErr_SetString(PyExc_ValueError, VARIANT_ERROR);
        return NULL;
    }
    if (flags < 0 || (flags & ~F_KNOWN)) {
        PyErr_SetString(PyExc_ValueError, "unknown flags");
        return NULL;
    }
    if (memory_mb < 1 || memory_mb > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "memory_mb must be between 1 and 1048576");
        return NULL;
    }
    S *s = calloc(1, sizeof(S));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    s->variant = variant;
    /* Safe auto-foundation assumes a card home stays home: with take-back it is not
     * sound (docs/solver.md gives a position it would lose), so it is off, and so are the
     * tests of cards that can never go home (the same assumption). */
    s->flags = takeback ? flags & ~(F_AUTO | F_STUCK | F_TWIN) : flags;
    /* twin classes: Yukon's build (two parents of one colour and rank), whole piles moving */
    if (variant != V_YUKON) s->flags &= ~F_MERGE;
    s->runs_only = variant == V_MOOSEHIDE_RUNS;
    s->takeback = takeback;
    s->randomize = randomize;
    s->rng = seed;
    if (read_position(s, columns, down, found) < 0) {
        free(s);
        return NULL;
    }
    setup_rules(s);
    /* table: a power of two of 16-byte slots, filled to TT_LOAD at most; it starts at
     * the size expect_nodes (else START_NODES) needs and doubles up to the memory cap */
    /* the table doubles in place (table_grow_in_place), so its peak is its own size */
    size_t cap_bytes = (size_t)memory_mb << 20, slots = slots_within(cap_bytes);
    s->tt.max_slots = slots;
    s->tt.cap_bytes = cap_bytes;
    s->tt.narrow = narrow_at ? NARROW_MAY : NARROW_NO;
    s->tt.narrow_at = narrow_at;
    s->tt.qmask = ((1ULL << 56) - 1) & ~((1ULL << (56 - narrow_bits)) - 1);
    size_t want = 1024;
    double need = (double)(expect_nodes ? expect_nodes : START_NODES) + 64;
    while (want < slots && (double)want * TT_LOAD < need) want *= 2;
    if (table_setup(&s->tt, want) < 0) {
        free(s);
        PyErr_NoMemory();
        return NULL;
    }
    return s;
}

/* Run (or resume) the search with max_nodes more positions (0: no limit), seconds of
 * CPU time of this thread and wall_seconds of wall-clock time (0: no limit); the GIL is
 * released meanwhile. Returns the result tuple (verdict, moves, nodes of this run,
 * reason). */
static PyObject *run_search(S *s, unsigned long long max_nodes, double seconds, double wall_seconds) {
    int verdict;
    uint64_t nodes0 = s->nodes;
    Py_BEGIN_ALLOW_THREADS
    s->deadline = seconds > 0 ? cpu_now() + seconds : 0;
    s->wall_deadline = wall_seconds > 0 ? now() + wall_seconds : 0;
    s->max_nodes = max_nodes ? s->nodes + max_nodes : 0;
    s->reason = R_NONE;
    verdict = search(s);
    Py_END_ALLOW_THREADS
    PyObject *moves = NULL;
    if (verdict == 0) {
        moves = PyList_New((Py_ssize_t)s->log_len);
        if (moves) {
            for (size_t i = 0; i < s->log_len; i++) {
                PyObject *m = PyLong_FromLong(s->log[i].move);
                if (!m) { Py_CLEAR(moves); break; }
                PyList_SET_ITEM(moves, (Py_ssize_t)i, m);
            }
        }
    } else {
        moves = PyList_New(0);
    }
    if (!moves) return NULL;
    return Py_BuildValue("(iNKs)", verdict, moves, (unsigned long long)(s->nodes - nodes0),
                         verdict == 2 ? REASONS[s->reason] : "");
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"variant", "columns", "down", "found", "flags", "max_nodes", "seconds",
                             "memory_mb", "seed", "randomize", "wall_seconds", "takeback", NULL};
    int variant, flags = F_ALL, randomize = 0, takeback = 0;
    unsigned long long max_nodes = 0, seed = 0;
    PyObject *max_nodes_obj = NULL, *seed_obj = NULL;
    double seconds = 0.0, wall_seconds = 0.0;
    Py_ssize_t memory_mb = 256;
    PyObject *columns, *down, *found;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOO|iOdnOpdp", kwlist, &variant, &columns, &down, &found,
                                     &flags, &max_nodes_obj, &seconds, &memory_mb, &seed_obj, &randomize,
                                     &wall_seconds, &takeback))
        return NULL;
    if (max_nodes_obj && read_u64(max_nodes_obj, "max_nodes", &max_nodes) < 0) return NULL;
    if (seed_obj && read_u64(seed_obj, "seed", &seed) < 0) return NULL;
    if (check_seconds(seconds) < 0 || check_seconds(wall_seconds) < 0) return NULL;
    unsigned long long expect = max_nodes && max_nodes < START_NODES ? max_nodes : START_NODES;
    S *s = new_search(variant, columns, down, found, flags, memory_mb, seed, randomize, expect, takeback, 0, 56);
    if (!s) return NULL;
    PyObject *result = run_search(s, max_nodes, seconds, wall_seconds);
    free_search(s);
    return result;
}

/* ---------------------------------------------------------------- the plain search by levels */

/* exhaust_by_levels(): the plain search (no rule: flags 0, every empty column tried,
 * columns not interchangeable) in the memory of one part of one level of progress
 * instead of the whole space, to confirm unwinnable verdicts of deals whose space does
 * not fit in memory.
 *
 * The level of a position is its cards home plus its cards turned face up. Without
 * take-back no move lowers it: a tableau move raises it by the card it turns (0 or 1), a
 * move home by 1 or 2. So the levels are searched in order, each from its entries: the
 * positions that moves of lower levels led to, written to temporary files (with repeats:
 * one record per move). A level splits further by its class, the foundations and the
 * face-down counts, which a move that keeps the level keeps too, so the classes of a
 * level are searched apart, in LEVEL_PARTS parts by a hash of the class. A part's table
 * holds its positions; each entry is looked up in it and, if new, searched by the moves
 * that keep the level (those positions go into the same table), while every move that
 * raises the level writes its position to the file of its level and part. Once a part is
 * done no position of it can be reached again: its table and file are dropped. Every
 * position is looked up in the table of its part before it is expanded, so the positions
 * visited (and counted) are those of the depth-first plain search, in another order. */

#define LEVEL_PARTS 64
#define KEEP_SLOTS 16384 /* a part's table up to this size (256 kB) is kept for the next part */
#define MAX_WORKERS 8

typedef struct Levels Levels;

/* The entries of one level and part written by one worker: in memory while they are few
 * (most parts of a small search hold a handful: a file each cost more than the search),
 * in a file once they outgrow SPILL_BYTES, or at once when the search has a directory. */
#define SPILL_BYTES 16384
typedef struct {
    FILE *f;
    uint8_t *buf;
    size_t len;
} Spill;

static void spill_free(Spill *sp) {
    if (sp->f) fclose(sp->f);
    free(sp->buf);
    memset(sp, 0, sizeof *sp);
}

/* One worker of the search by levels (a thread; the first is the caller): its own copy
 * of the position, its own table and the files of the entries it writes. */
typedef struct {
    Levels *lv;
    S *s;
    Table set;                    /* the positions of the part being searched */
    Spill spill[3][2][LEVEL_PARTS]; /* spill[T % 3][up - 1][p]: entries of level T, part p, written from level T - up */
    uint64_t *sent;               /* keys of entries it wrote lately: a repeat is not written again */
    size_t sent_slots, sent_max, cap_bytes;
    uint64_t peak, records;
    int verdict; /* of the level: 0 won, 1 done, 2 stopped */
} Worker;

struct Levels {
    Worker w[MAX_WORKERS];
    int workers, level;
    int next_part;            /* the next part of the level to take (atomic) */
    int stop;                 /* a worker won or stopped: the others stop too (atomic) */
    int reason;               /* why the search stopped: R_MEMORY (memory or disk) unless R_NODES */
    uint64_t nodes;           /* positions, all workers (atomic) */
    uint64_t max_nodes;
    uint8_t start[NCOLS][52]; /* the first position's columns */
    int8_t under0[52];        /* the card under each card in the first position, or -1 */
    /* with a directory, the entries are named files there and the search can resume */
    char dir[PATH_MAX - 64];
    uint64_t named[MAX_WORKERS][2]; /* the directory's files of the level being searched: bit p of [i][up - 1] */
    int first_level;   /* the level to search first: the deal's, or where a stopped run ended */
    double cpu_before; /* CPU seconds of the runs before this one (resumed) */
    uint64_t key_a, key_b;
};

static int part_of(const S *s) {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int u = 0; u < 4; u++) h = (h ^ (uint64_t)s->found[u]) * 0x100000001B3ULL;
    for (int k = 0; k < NCOLS; k++) h = (h ^ (uint64_t)s->down[k]) * 0x100000001B3ULL;
    return (int)((h ^ (h >> 29)) % LEVEL_PARTS);
}

/* A record is 4 bits per card, then the 7 face-down counts. A face-up card lies on the
 * card it lay on in the first position (0), on one of its parents (1 + the parent's
 * index), or at the bottom of column k (8 + k): moves put cards only there, and a pile
 * keeps its order. 15: home or face down (the face-down cards of a column are the
 * bottom ones of the first position; the cards not in the tableau are home). */
#define RECORD (26 + NCOLS)

static inline uint64_t *sent_slot(const Worker *w, uint64_t a) { return &w->sent[2 * ((size_t)a & (w->sent_slots - 1))]; }

/* The name of the file of the entries of level T, part p, written from level T - up by
 * worker i, in the search's directory. */
static void entry_path(const Levels *lv, char *path, int T, int up, int i, int p) {
    snprintf(path, PATH_MAX, "%s/entries-%d-%d-%d-%d", lv->dir, T, up, i, p);
}

/* An unnamed temporary file (gone when closed) in $TMPDIR, or /tmp: NULL (errno set) if
 * it cannot be made. tmpfile() would always use /tmp, however small. */
static FILE *temp_file(void) {
    const char *dir = getenv("TMPDIR");
    char path[PATH_MAX];
    if (!dir || !*dir) dir = "/tmp";
    if (snprintf(path, sizeof path, "%s/yukon-levels.XXXXXX", dir) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return NULL;
    }
    int fd = mkstemp(path);
    if (fd < 0) return NULL;
    unlink(path);
    FILE *f = fdopen(fd, "w+b");
    if (!f) close(fd);
    return f;
}

/* Double the keys of the entries written lately (they start small and grow with the
 * entries written, up to sent_max: a small search does not pay for the pages of a large
 * one). A key's slot is its low bits, so an old slot goes to one of two. 0, or -1. */
static int grow_sent(Worker *w) {
    size_t n = w->sent_slots;
    uint64_t *old = w->sent, *t = alloc_table(2 * n);
    if (!t) return -1;
    for (size_t i = 0; i < n; i++) {
        if (!old[2 * i] && !old[2 * i + 1]) continue; /* the new table's pages stay untouched */
        size_t j = old[2 * i] & n ? i + n : i;
        t[2 * j] = old[2 * i];
        t[2 * j + 1] = old[2 * i + 1];
    }
    free_table(old, n);
    w->sent = t;
    w->sent_slots = 2 * n;
    return 0;
}

/* Write the position of s, whose key is (a, b), as an entry of level T (up levels above
 * the level being searched). */
static int put_entry(Worker *w, int T, int up, const S *s, uint64_t a, uint64_t b) {
    uint8_t rec[RECORD];
    uint64_t *sent = sent_slot(w, a);
    if (sent[0] == a && sent[1] == b) return 0; /* written already, to a file of its level and part */
    sent[0] = a;
    sent[1] = b;
    if (w->records >= w->sent_slots && w->sent_slots < w->sent_max && grow_sent(w) < 0) return -1;
    memset(rec, 0xFF, 26);
    for (int k = 0; k < NCOLS; k++) {
        rec[26 + k] = (uint8_t)s->down[k];
        for (int h = s->down[k]; h < s->len[k]; h++) {
            int c = s->cols[k][h], code;
            if (h == 0)
                code = 8 + k;
            else if (s->cols[k][h - 1] == w->lv->under0[c])
                code = 0;
            else if (s->pidx[c][s->cols[k][h - 1]] >= 0)
                code = 1 + s->pidx[c][s->cols[k][h - 1]];
            else
                return -1;
            rec[c >> 1] = (uint8_t)(c & 1 ? (rec[c >> 1] & 0x0F) | code << 4 : (rec[c >> 1] & 0xF0) | code);
        }
    }
    int p = part_of(s);
    Spill *sp = &w->spill[T % 3][up - 1][p];
    w->records++;
    if (!sp->f && !w->lv->dir[0] && sp->len + RECORD <= SPILL_BYTES) {
        if (!sp->buf && !(sp->buf = malloc(SPILL_BYTES))) return -1;
        memcpy(sp->buf + sp->len, rec, RECORD);
        sp->len += RECORD;
        return 0;
    }
    if (!sp->f && w->lv->dir[0]) {
        char path[PATH_MAX];
        entry_path(w->lv, path, T, up, (int)(w - w->lv->w), p);
        sp->f = fopen(path, "wb");
    } else if (!sp->f) { /* the buffer is full: a file, which takes what it held */
        sp->f = temp_file();
        if (sp->f && fwrite(sp->buf, 1, sp->len, sp->f) != sp->len) return -1;
        free(sp->buf);
        sp->buf = NULL;
        sp->len = 0;
    }
    if (!sp->f) return -1;
    return fwrite(rec, 1, RECORD, sp->f) == RECORD ? 0 : -1;
}

/* The next entry of a spill, read from its file or its buffer (*at: how far): 1 (rec holds
 * it), 0 (no more entries), -1 (a read error). */
static int next_record(const Spill *sp, size_t *at, uint8_t *rec) {
    if (!sp->f) {
        if (*at >= sp->len) return 0;
        memcpy(rec, sp->buf + *at, RECORD);
        *at += RECORD;
        return 1;
    }
    size_t got = fread(rec, 1, RECORD, sp->f);
    if (got == 0 && feof(sp->f)) return 0;
    return got == RECORD ? 1 : -1;
}

/* Make s the position of a record: 0, or -1 (not a record of this search). */
static int get_entry(const Levels *lv, const uint8_t *rec, S *s) {
    int8_t above[52], bottom[NCOLS];
    memset(above, -1, sizeof above);
    memset(bottom, -1, sizeof bottom);
    for (int c = 0; c < 52; c++) {
        int code = c & 1 ? rec[c >> 1] >> 4 : rec[c >> 1] & 15, under;
        s->col_of[c] = HOME;
        s->pos_of[c] = 0;
        if (code == 15) continue;
        if (code >= 8 + NCOLS || (code > 3 && code < 8)) return -1;
        if (code >= 8) {
            bottom[code - 8] = (int8_t)c;
            continue;
        }
        under = code ? (code - 1 < s->npar[c] ? s->par[c][code - 1] : -1) : lv->under0[c];
        if (under < 0) return -1;
        above[under] = (int8_t)c;
    }
    for (int k = 0; k < NCOLS; k++) {
        int n = s->down[k] = rec[26 + k], x = n ? above[lv->start[k][n - 1]] : bottom[k];
        memcpy(s->cols[k], lv->start[k], (size_t)n);
        for (; x >= 0 && n < 52; x = above[x]) s->cols[k][n++] = (uint8_t)x;
        s->len[k] = n;
        for (int h = 0; h < n; h++) {
            s->col_of[s->cols[k][h]] = (int8_t)k;
            s->pos_of[s->cols[k][h]] = (int8_t)h;
        }
    }
    s->nhome = 0;
    for (int u = 0; u < 4; u++) {
        s->found[u] = 0;
        while (s->found[u] < 13 && s->col_of[u * 13 + s->found[u]] == HOME) s->found[u]++;
        s->nhome += s->found[u];
    }
    hash_position(s);
    return 0;
}

/* The position with key (a, b) into the worker's table: table_insert's answers, or -3
 * when the position budget is spent. */
static int level_insert(Worker *w, uint64_t a, uint64_t b) {
    Levels *lv = w->lv;
    int r = table_insert(&w->set, NULL, a, b);
    if (r != 1) return r;
    uint64_t n = __atomic_add_fetch(&lv->nodes, 1, __ATOMIC_RELAXED);
    if (lv->max_nodes && n > lv->max_nodes) {
        __atomic_sub_fetch(&lv->nodes, 1, __ATOMIC_RELAXED);
        lv->reason = R_NODES;
        return -3;
    }
    if (w->set.count > w->peak) w->peak = w->set.count;
    return 1;
}

/* How far a move raises the level: 1 for a move home, 1 for the card it turns. */
static inline int level_up(const S *s, int move) {
    int c = move >> 3, k = s->col_of[c], h = s->pos_of[c];
    return ((move & 7) == FOUND_DEST) + (h > 0 && h == s->down[k]);
}

/* A frame for the current position (NULL: out of memory). Its children already known
 * are marked now, all at once (their table slots prefetched first, so that the misses
 * overlap): a child of the level already in the part's table, a child of a higher level
 * already written. Neither is ever removed before the part is done. */
static Frame *level_frame(Worker *w) {
    S *s = w->s;
    Frame *f = new_frame(s);
    if (!f) return NULL;
    f->n = gen_moves(s, f->moves);
    f->idx = 0;
    f->mark = s->log_len;
    uint64_t ka[MAXMOVES], kb[MAXMOVES];
    for (int i = 0; i < f->n; i++) {
        move_key(s, f->moves[i], &ka[i], &kb[i]);
        __builtin_prefetch(&w->set.t[2 * (size_t)(kb[i] >> w->set.shift)]);
        __builtin_prefetch(sent_slot(w, ka[i]));
    }
    for (int i = 0; i < f->n; i++) {
        const uint64_t *sent = sent_slot(w, ka[i]);
        f->known[i] = (uint8_t)(level_up(s, f->moves[i]) ? sent[0] == ka[i] && sent[1] == kb[i]
                                                         : table_contains(&w->set, ka[i], kb[i]));
    }
    return f;
}

/* Search the entries of one spill of part p of level L: 0 won, 1 done, 2 stopped. */
static int search_entries(Worker *w, int L, const Spill *sp) {
    S *s = w->s;
    uint8_t rec[RECORD];
    size_t at = 0;
    if (sp->f) rewind(sp->f);
    for (;;) {
        if (__atomic_load_n(&w->lv->stop, __ATOMIC_RELAXED)) return 1;
        int got = next_record(sp, &at, rec);
        if (got < 0) return 2;
        if (got == 0) return 1;
        if (get_entry(w->lv, rec, s) < 0) return 2;
        int r = level_insert(w, s->ha || s->hb ? s->ha : 1, s->hb);
        if (r < 0) return 2;
        if (r == 0) continue;
        s->log_len = 0;
        s->nframes = 0;
        if (!level_frame(w)) return 2;
        while (s->nframes) {
            Frame *fr = &s->frames[s->nframes - 1];
            if (fr->idx >= fr->n) {
                s->nframes--;
                if (s->nframes) pop_to(s, s->frames[s->nframes - 1].mark);
                continue;
            }
            if (fr->known[fr->idx]) {
                fr->idx++;
                continue;
            }
            int move = fr->moves[fr->idx++], up = level_up(s, move);
            uint64_t ka, kb;
            move_key(s, move, &ka, &kb);
            if (!up && table_contains(&w->set, ka, kb)) continue;
            if (push_move(s, move) < 0) return 2;
            if (s->nhome == 52) return 0;
            if (up) {
                if (put_entry(w, L + up, up, s, ka, kb) < 0) return 2;
            } else {
                r = level_insert(w, ka, kb);
                if (r < 0) return 2;
                if (!level_frame(w)) return 2;
                continue;
            }
            pop_move(s);
        }
    }
}

/* Take parts of the current level until none is left (or another worker stopped):
 * each part's entries, from the files of every worker, go through one table. */
static void *work_level(void *arg) {
    Worker *w = arg;
    Levels *lv = w->lv;
    int L = lv->level;
    w->verdict = 1;
    for (;;) {
        int p = __atomic_fetch_add(&lv->next_part, 1, __ATOMIC_RELAXED);
        if (p >= LEVEL_PARTS || __atomic_load_n(&lv->stop, __ATOMIC_RELAXED)) break;
        Table *t = &w->set;
        int v = 1;
        /* every worker's files of the part: no other worker touches them in this level; a
         * directory's files are closed already, and may come from another number of workers */
        for (int i = 0; i < (lv->dir[0] ? MAX_WORKERS : lv->workers); i++) {
            for (int up = 1; up <= 2; up++) {
                Spill *sp = &lv->w[i].spill[L % 3][up - 1][p], named = {0};
                if (lv->dir[0] && v == 1 && (lv->named[i][up - 1] >> p & 1)) {
                    char path[PATH_MAX];
                    entry_path(lv, path, L, up, i, p);
                    if (!(named.f = fopen(path, "rb"))) v = 2;
                }
                if (lv->dir[0]) sp = &named;
                int some = sp->f || sp->len;
                if (some && v == 1 && !t->t) { /* the part's first entries */
                    t->cap_bytes = w->cap_bytes;
                    t->max_slots = slots_within(t->cap_bytes);
                    v = table_setup(t, 1024) < 0 ? 2 : 1;
                }
                if (some && v == 1) v = search_entries(w, L, sp);
                spill_free(sp); /* unnamed, its disk space is free at once; named, at the level's end */
            }
        }
        /* a small table is cleared and kept for the worker's next part (most parts of a
         * small search hold a few positions: a mapping of their own cost more than the
         * search); a large one goes, so that the level's largest part alone is held */
        if (t->t && t->slots <= KEEP_SLOTS) {
            memset(t->t, 0, t->slots * (size_t)t->words * 8);
            t->count = 0;
        } else if (t->t) {
            table_free(t);
            memset(t, 0, sizeof(Table));
        }
        if (v != 1) {
            w->verdict = v;
            __atomic_store_n(&lv->stop, 1, __ATOMIC_RELAXED);
            break;
        }
    }
    return NULL;
}

/* The most positions any worker held in one table. */
static uint64_t most_held(const Levels *lv) {
    uint64_t peak = 0;
    for (int i = 0; i < lv->workers; i++) peak = lv->w[i].peak > peak ? lv->w[i].peak : peak;
    return peak;
}

static double process_cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- a directory: named entry files and a state file, so that a stopped run resumes */

#define STATE_FORMAT(CPU) \
    "{\"format\": 1, \"variant\": %d, \"key\": \"%016llx%016llx\", \"level\": %d, \"positions\": %llu, " \
    "\"held\": %llu, \"cpu_seconds\": " CPU "}\n"

/* Remove the directory's entry files whose level T is below `below`, or that were written
 * from level `from` or above. */
static void remove_entries(const Levels *lv, int below, int from) {
    DIR *d = opendir(lv->dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        int T, up, i, p, n = 0;
        if (sscanf(e->d_name, "entries-%d-%d-%d-%d%n", &T, &up, &i, &p, &n) != 4 || e->d_name[n]) continue;
        if (T < below || T - up >= from) {
            char path[PATH_MAX];
            entry_path(lv, path, T, up, i, p);
            (void)unlink(path);
        }
    }
    closedir(d);
}

/* Which of the directory's entry files belong to level L (lv->named): one listing of the
 * directory instead of a try at every name a part's files might have (MAX_WORKERS × 2 ×
 * LEVEL_PARTS a level, nearly all missing in a small search). 0, or -1 (unreadable). */
static int list_entries(Levels *lv, int L) {
    DIR *d = opendir(lv->dir);
    if (!d) return -1;
    memset(lv->named, 0, sizeof lv->named);
    struct dirent *e;
    while ((e = readdir(d))) {
        int T, up, i, p, n = 0;
        if (sscanf(e->d_name, "entries-%d-%d-%d-%d%n", &T, &up, &i, &p, &n) != 4 || e->d_name[n]) continue;
        if (T == L && up >= 1 && up <= 2 && i >= 0 && i < MAX_WORKERS && p >= 0 && p < LEVEL_PARTS)
            lv->named[i][up - 1] |= 1ULL << p;
    }
    closedir(d);
    return 0;
}

/* Close the named files of the entries of level T written from level T - up (they are
 * read by name): 0, or -1 if one could not be written out. */
static int close_entries(Levels *lv, int T, int up) {
    int ok = 1;
    for (int i = 0; i < lv->workers; i++)
        for (int p = 0; p < LEVEL_PARTS; p++) {
            FILE **f = &lv->w[i].spill[T % 3][up - 1][p].f;
            if (*f && fclose(*f) != 0) ok = 0;
            *f = NULL;
        }
    return ok ? 0 : -1;
}

/* Level L is done: close the files it wrote, record that the search goes on at level
 * L + 1, and drop the files of level L. -1: the state could not be written. */
static int level_done(Levels *lv, int L, double cpu) {
    int ok = close_entries(lv, L + 1, 1) == 0 && close_entries(lv, L + 2, 2) == 0;
    char path[PATH_MAX], tmp[PATH_MAX];
    snprintf(path, PATH_MAX, "%s/state.json", lv->dir);
    snprintf(tmp, PATH_MAX, "%s/state.json.new", lv->dir);
    FILE *f = ok ? fopen(tmp, "w") : NULL;
    if (!f) return -1;
    ok = fprintf(f, STATE_FORMAT("%.1f"), lv->w[0].s->variant, (unsigned long long)lv->key_a, (unsigned long long)lv->key_b,
                 L + 1, (unsigned long long)lv->nodes, (unsigned long long)most_held(lv), cpu) > 0;
    if (fclose(f) != 0 || !ok || rename(tmp, path) != 0) return -1;
    remove_entries(lv, L + 1, INT_MAX);
    return 0;
}

/* Open the search's directory (with the GIL): lock it against a second search, then
 * resume from its state file or clear it. -1 with a Python exception. */
static int open_directory(Levels *lv, const char *dir, int *lock_fd) {
    S *s = lv->w[0].s;
    char path[PATH_MAX];
    if (strlen(dir) >= sizeof lv->dir) {
        PyErr_SetString(PyExc_ValueError, "directory: the path is too long");
        return -1;
    }
    strcpy(lv->dir, dir);
    lv->key_a = s->ha;
    lv->key_b = s->hb;
    snprintf(path, PATH_MAX, "%s/lock", dir);
    *lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (*lock_fd < 0) {
        PyErr_Format(PyExc_ValueError, "directory %s: %s", dir, strerror(errno));
        return -1;
    }
    if (flock(*lock_fd, LOCK_EX | LOCK_NB) != 0) {
        PyErr_Format(PyExc_ValueError, "directory %s: another search is using it", dir);
        return -1;
    }
    snprintf(path, PATH_MAX, "%s/state.json", dir);
    FILE *f = fopen(path, "r");
    if (!f) {
        remove_entries(lv, INT_MAX, 0); /* a run stopped before its first level ended */
        return 0;
    }
    int variant, level, got;
    unsigned long long a, b, positions, held;
    double cpu;
    got = fscanf(f, STATE_FORMAT("%lf"), &variant, &a, &b, &level, &positions, &held, &cpu);
    fclose(f);
    if (got != 7 || level < s->nhome || level > 53 + 52) {
        PyErr_Format(PyExc_ValueError, "directory %s: state.json is not the state of a search by levels", dir);
        return -1;
    }
    if (variant != s->variant || a != lv->key_a || b != lv->key_b) {
        PyErr_Format(PyExc_ValueError, "directory %s holds the search of another position", dir);
        return -1;
    }
    lv->first_level = level;
    lv->nodes = positions;
    lv->w[0].peak = held;
    lv->cpu_before = cpu;
    remove_entries(lv, level, level); /* what the stopped run wrote in its last level */
    return 0;
}

/* 0 won, 1 exhausted (no win), 2 stopped (lv->reason); lv holds the counts. */
static int exhaust_levels(Levels *lv, int verbose) {
    S *s = lv->w[0].s;
    int down0 = 0, verdict = 1;
    double cpu0 = process_cpu_now();
    for (int k = 0; k < NCOLS; k++) down0 += s->down[k];
    if (s->nhome == 52) return 0;
    for (int k = 0; k < NCOLS; k++) {
        memcpy(lv->start[k], s->cols[k], (size_t)s->len[k]);
        for (int h = 0; h < s->len[k]; h++) lv->under0[s->cols[k][h]] = (int8_t)(h ? s->cols[k][h - 1] : -1);
    }
    if (lv->first_level > s->nhome) {
        if (verbose)
            fprintf(stderr, "resuming at level %d: %llu positions and %.1f CPU-s before\n", lv->first_level,
                    (unsigned long long)lv->nodes, lv->cpu_before);
    } else if (put_entry(&lv->w[0], s->nhome, 1, s, s->ha || s->hb ? s->ha : 1, s->hb) < 0 ||
               (lv->dir[0] && close_entries(lv, s->nhome, 1) < 0)) {
        return 2;
    }
    for (int L = lv->first_level; L <= 52 + down0 && verdict == 1; L++) {
        uint64_t nodes = lv->nodes, records = 0;
        for (int i = 0; i < lv->workers; i++) records -= lv->w[i].records; /* minus those written before */
        double cpu = process_cpu_now();
        pthread_t threads[MAX_WORKERS];
        int started = 1;
        lv->level = L;
        lv->next_part = 0;
        if (lv->dir[0] && list_entries(lv, L) < 0) {
            lv->reason = R_MEMORY; /* the disk */
            verdict = 2;
            break;
        }
        for (; started < lv->workers; started++)
            if (pthread_create(&threads[started], NULL, work_level, &lv->w[started]) != 0) break;
        work_level(&lv->w[0]);
        for (int i = 1; i < started; i++) pthread_join(threads[i], NULL);
        for (int i = 0; i < started; i++) {
            if (lv->w[i].verdict == 0) verdict = 0;
            else if (lv->w[i].verdict == 2 && verdict == 1) verdict = 2;
        }
        for (int i = 0; i < lv->workers; i++) records += lv->w[i].records;
        if (verbose && lv->nodes > nodes) {
            fprintf(stderr, "level %d: %llu positions, %llu records written, %.1f CPU-s, at most %llu positions in a table\n",
                    L, (unsigned long long)(lv->nodes - nodes), (unsigned long long)records, process_cpu_now() - cpu,
                    (unsigned long long)most_held(lv));
        }
        if (verdict == 1 && lv->dir[0] && level_done(lv, L, lv->cpu_before + process_cpu_now() - cpu0) < 0) {
            lv->reason = R_MEMORY; /* the disk */
            verdict = 2;
        }
    }
    return verdict;
}

static void free_levels(Levels *lv) {
    for (int i = 0; i < lv->workers; i++) {
        Worker *w = &lv->w[i];
        for (int j = 0; j < 3; j++)
            for (int p = 0; p < LEVEL_PARTS; p++)
                for (int up = 0; up < 2; up++) spill_free(&w->spill[j][up][p]);
        table_free(&w->set);
        free_table(w->sent, w->sent_slots);
        free_search(w->s);
    }
    free(lv);
}

/* The search ended (won or exhausted): its directory's files go. */
static void clear_directory(const Levels *lv) {
    char path[PATH_MAX];
    remove_entries(lv, INT_MAX, 0);
    snprintf(path, PATH_MAX, "%s/state.json", lv->dir);
    (void)unlink(path);
    snprintf(path, PATH_MAX, "%s/lock", lv->dir);
    (void)unlink(path);
}

/* exhaust_by_levels(variant, columns, down, found, memory_mb=4096, max_nodes=0,
 * threads=1, verbose=False, directory=None) -> (verdict, positions, most positions in one
 * table, reason); verbose prints a line per level to stderr. With a directory (which must
 * exist) the entries are named files there, and a state file records each finished level:
 * a run that stopped, was stopped or was killed resumes at the level it was in when called
 * again with the same directory and position (any number of threads). */
static PyObject *py_exhaust_by_levels(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"variant", "columns", "down", "found", "memory_mb", "max_nodes", "threads", "verbose",
                             "directory", NULL};
    int variant, verbose = 0, workers = 1, verdict, lock_fd = -1;
    const char *directory = NULL;
    Py_ssize_t memory_mb = 4096;
    unsigned long long max_nodes = 0;
    PyObject *columns, *down, *found, *max_nodes_obj = NULL;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOO|nOipz", kwlist, &variant, &columns, &down, &found, &memory_mb,
                                     &max_nodes_obj, &workers, &verbose, &directory))
        return NULL;
    if (max_nodes_obj && read_u64(max_nodes_obj, "max_nodes", &max_nodes) < 0) return NULL;
    if (workers < 1 || workers > MAX_WORKERS) {
        PyErr_Format(PyExc_ValueError, "threads must be between 1 and %d", MAX_WORKERS);
        return NULL;
    }
    Levels *lv = calloc(1, sizeof(Levels));
    if (!lv) return PyErr_NoMemory();
    S *s = new_search(variant, columns, down, found, 0, memory_mb, 0, 0, 1, 0, 0, 56);
    if (!s) {
        free(lv);
        return NULL;
    }
    lv->max_nodes = max_nodes;
    lv->reason = R_MEMORY;
    lv->first_level = s->nhome;
    /* up to an eighth of the memory (at most 1 GB a worker) remembers the entries written
     * lately: from 4,096 keys, doubling as the entries written outnumber them */
    size_t share = ((size_t)memory_mb << 20) / (size_t)workers, sent_max = 1024;
    while (sent_max * 2 * 16 * 8 <= share && sent_max < (1u << 26)) sent_max *= 2;
    for (int i = 0; i < workers; i++) {
        Worker *w = &lv->w[i];
        lv->workers = i + 1;
        w->lv = lv;
        w->s = i ? malloc(sizeof(S)) : s;
        if (w->s && i) {
            memcpy(w->s, s, sizeof(S));
            memset(&w->s->tt, 0, sizeof(Table));
            w->s->log = NULL;
            w->s->frames = NULL;
            w->s->log_len = w->s->log_cap = w->s->nframes = w->s->frames_cap = 0;
        }
        w->sent_max = sent_max;
        w->sent_slots = sent_max < 4096 ? sent_max : 4096;
        w->sent = w->s ? alloc_table(w->sent_slots) : NULL;
        w->cap_bytes = share > sent_max * 16 ? share - sent_max * 16 : 0;
        if (!w->sent) {
            free_levels(lv);
            return PyErr_NoMemory();
        }
    }
    if (directory && open_directory(lv, directory, &lock_fd) < 0) {
        if (lock_fd >= 0) close(lock_fd);
        free_levels(lv);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    verdict = exhaust_levels(lv, verbose);
    Py_END_ALLOW_THREADS
    PyObject *result = Py_BuildValue("(iKKs)", verdict, (unsigned long long)lv->nodes, (unsigned long long)most_held(lv),
                                     verdict == 2 ? REASONS[lv->reason] : "");
    if (directory && verdict != 2) clear_directory(lv);
    free_levels(lv);
    if (lock_fd >= 0) close(lock_fd);
    return result;
}

/* ---------------------------------------------------------------- Search objects */

/* Search(variant, columns, down, found, flags=F_ALL, memory_mb=256, seed=0,
 * randomize=False, expect_nodes=0, takeback=False, narrow=0, narrow_bits=56): a search that
 * can be run in slices with run(max_nodes=0, seconds=0.0); each call continues where the
 * last one stopped. narrow: 0, or the slots at which its table goes narrow (see Table);
 * narrow_bits < 56 keeps fewer quotient bits, only to test what false merges do. */
typedef struct {
    PyObject_HEAD
    S *s;
    int busy; /* a run is in progress (another thread must not touch s) */
} SearchObject;

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"variant", "columns", "down", "found", "flags", "memory_mb", "seed", "randomize",
                             "expect_nodes", "takeback", "narrow", "narrow_bits", NULL};
    int variant, flags = F_ALL, randomize = 0, takeback = 0, narrow_bits = 56;
    unsigned long long narrow = 0;
    PyObject *narrow_obj = NULL;
    unsigned long long seed = 0, expect = 0;
    PyObject *seed_obj = NULL, *expect_obj = NULL;
    Py_ssize_t memory_mb = 256;
    PyObject *columns, *down, *found;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running in another thread");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOO|inOpOpOi", kwlist, &variant, &columns, &down, &found, &flags,
                                     &memory_mb, &seed_obj, &randomize, &expect_obj, &takeback, &narrow_obj,
                                     &narrow_bits))
        return -1;
    if (seed_obj && read_u64(seed_obj, "seed", &seed) < 0) return -1;
    if (expect_obj && read_u64(expect_obj, "expect_nodes", &expect) < 0) return -1;
    if (narrow_obj && read_u64(narrow_obj, "narrow", &narrow) < 0) return -1;
    if (narrow && (narrow < 2048 || narrow > (1ULL << 40) || (narrow & (narrow - 1)))) {
        PyErr_SetString(PyExc_ValueError, "narrow must be 0 or a power of two from 2048 to 2**40");
        return -1;
    }
    if (narrow_bits < 1 || narrow_bits > 56) {
        PyErr_SetString(PyExc_ValueError, "narrow_bits must be from 1 to 56");
        return -1;
    }
    S *s = new_search(variant, columns, down, found, flags, memory_mb, seed, randomize, expect, takeback,
                      (size_t)narrow, narrow_bits);
    if (!s) return -1;
    free_search(self->s);
    self->s = s;
    return 0;
}

static void Search_dealloc(SearchObject *self) {
    free_search(self->s);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_run(SearchObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"max_nodes", "seconds", "wall_seconds", NULL};
    unsigned long long max_nodes = 0;
    PyObject *max_nodes_obj = NULL;
    double seconds = 0.0, wall_seconds = 0.0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Odd", kwlist, &max_nodes_obj, &seconds, &wall_seconds))
        return NULL;
    if (max_nodes_obj && read_u64(max_nodes_obj, "max_nodes", &max_nodes) < 0) return NULL;
    if (check_seconds(seconds) < 0 || check_seconds(wall_seconds) < 0) return NULL;
    if (!self->s) {
        PyErr_SetString(PyExc_RuntimeError, "the search was not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running in another thread");
        return NULL;
    }
    self->busy = 1;
    PyObject *result = run_search(self->s, max_nodes, seconds, wall_seconds);
    self->busy = 0;
    return result;
}

static PyObject *Search_get_nodes(SearchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->s ? (unsigned long long)self->s->nodes : 0ULL);
}

static PyObject *Search_get_members(SearchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->s ? (unsigned long long)self->s->members : 0ULL);
}

static PyObject *Search_get_narrowed(SearchObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->s && self->s->tt.narrow == NARROW_YES);
}

static PyObject *Search_get_flags(SearchObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->s ? self->s->flags : 0);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(max_nodes=0, seconds=0.0, wall_seconds=0.0) -> (verdict, moves, nodes of this run, reason); resumes where the last "
     "run stopped"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "positions searched so far, all runs", NULL},
    {"members", (getter)Search_get_members, NULL,
     "F_MERGE: the classes' members searched so far besides their entries (counted in nodes too)", NULL},
    {"narrowed", (getter)Search_get_narrowed, NULL,
     "the table went narrow: an exhausted search only says 'probably lost'", NULL},
    {"flags", (getter)Search_get_flags, NULL,
     "the rules in force: those asked for, less the ones the variant or take-back switches off", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "yukon.solver._csolver.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(variant, columns, down, found, flags=F_ALL, memory_mb=256, seed=0, randomize=False, "
              "expect_nodes=0, takeback=False, narrow=0, narrow_bits=56): a depth-first search that runs in "
              "resumable slices.",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_init = (initproc)Search_init,
    .tp_new = PyType_GenericNew,
};

/* legal_moves(variant, columns, down, found, takeback=False) -> list of moves: the
 * search's move generator with every empty column offered, for testing it against the
 * engine. */
static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    int variant, takeback = 0;
    PyObject *columns, *down, *found;
    uint16_t moves[MAXMOVES];
    (void)self;
    if (!PyArg_ParseTuple(args, "iOOO|p", &variant, &columns, &down, &found, &takeback)) return NULL;
    if (variant < 0 || variant >= V_COUNT) {
        PyErr_SetString(PyExc_ValueError, VARIANT_ERROR);
        return NULL;
    }
    S *s = calloc(1, sizeof(S));
    if (!s) return PyErr_NoMemory();
    s->variant = variant;
    s->flags = F_CANON;
    s->runs_only = variant == V_MOOSEHIDE_RUNS;
    s->takeback = takeback;
    if (read_position(s, columns, down, found) < 0) {
        free(s);
        return NULL;
    }
    setup_rules(s);
    int n = gen_moves(s, moves);
    free(s);
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *m = PyLong_FromLong(moves[i]);
        if (!m) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, m);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"legal_moves", py_legal_moves, METH_VARARGS,
     "legal_moves(variant, columns, down, found, takeback=False) -> list of moves (every empty column offered)"},
    {"exhaust_by_levels", (PyCFunction)(void (*)(void))py_exhaust_by_levels, METH_VARARGS | METH_KEYWORDS,
     "exhaust_by_levels(variant, columns, down, found, memory_mb=4096, max_nodes=0, threads=1, verbose=False, directory=None) -> (verdict, "
     "positions, most positions in one table, reason): the plain search (flags 0), level of progress by level"},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(variant, columns, down, found, flags=F_ALL, max_nodes=0, seconds=0.0, memory_mb=256, seed=0, "
     "randomize=False, wall_seconds=0.0, takeback=False) -> (verdict, moves, nodes, reason); seconds is CPU time"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_csolver", "Depth-first search core of the Yukon solver.",
                                    -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__csolver(void) {
    init_keys();
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "F_AUTO", F_AUTO) < 0 || PyModule_AddIntConstant(m, "F_ONE_EMPTY", F_ONE_EMPTY) < 0 ||
        PyModule_AddIntConstant(m, "F_CANON", F_CANON) < 0 ||
        PyModule_AddIntConstant(m, "F_STUCK", F_STUCK) < 0 || PyModule_AddIntConstant(m, "F_TWIN", F_TWIN) < 0 ||
        PyModule_AddIntConstant(m, "F_MERGE", F_MERGE) < 0 || PyModule_AddIntConstant(m, "F_ALL", F_ALL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
