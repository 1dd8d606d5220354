/*
 * _cmulti: the depth-first search of the multi-deck games (Double, Triple and Quadruple
 * Yukon), in C.
 *
 * The single-deck core (_csolver.c) indexes 52 distinct cards in 64-bit sets; with two
 * to four decks two identical cards can be in play at once, so these games get this
 * search: the same interface (solve(), Search with resumable run(), legal_moves()), the
 * same portfolio in Python (yukon/solver/__init__.py), and the rules that are argued
 * sound for duplicate cards in docs/solver.md ("Multi-deck variants"):
 *
 *   F_AUTO       safe auto-foundation, with the twin condition (a copy sent home takes
 *                no foundation another copy of its face needs);
 *   F_ONE_EMPTY  a King pile is offered only the first empty column;
 *   F_CANON      the table keys positions by faces: which deck a copy comes from is not
 *                part of the game, columns are interchangeable and so are the
 *                foundations of one suit;
 *   F_STUCK      a position where some card can never go home is lost (the same least
 *                fixpoint as the single-deck rule, over faces' copies).
 *
 * Cards are physical: deck * 52 + face, face = suit * 13 + rank - 1 (suits c d h s).
 * A move is card << 5 | dest, dest 31 = a foundation (the first of the card's suit that
 * takes it, as the engine plays it): the engine's own encoding, so the line replays
 * through yukon.engine move by move.
 *
 * verdict: 0 solved (moves is the line), 1 exhausted (no win is reachable: every flag is
 * a proven-sound rule), 2 a budget ran out (reason).
 *
 * The key: each column has two 64-bit hashes, the XOR of a random value per (height,
 * card) (by face with F_CANON, else by physical card and column) and one for its
 * face-down count; the position's 128-bit key is the sum of a non-linear mix of each
 * column's hashes plus a random value per (suit or pile, count) of each foundation. A sum
 * is a multiset hash: two identical columns count twice, never cancel.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#include "_common.h"

#define MAXDECKS 4
#define MAXCARDS (52 * MAXDECKS)
#define MAXCOLS 16
#define MAXPILES (4 * MAXDECKS)
#define SHIFT 5
#define HOME_DEST 31
#define HOME (-1)
/* at most: 8 copies of two child faces on each of 16 tops, 16 cards home, 16 Kings into
 * 16 empty columns */
#define MAXMOVES 512
#define TT_LOAD 0.5
#define TT_LOAD_CAP 0.7

#define F_AUTO 1
#define F_ONE_EMPTY 2
#define F_CANON 4
#define F_STUCK 16
#define F_ALL (F_AUTO | F_ONE_EMPTY | F_CANON | F_STUCK)

enum { R_NONE = 0, R_NODES, R_TIME, R_MEMORY, R_WALL };
static const char *REASONS[] = {"", "nodes", "seconds", "memory", "wall"};

typedef struct {
    uint16_t move;
    int8_t src;    /* column the card left */
    int8_t pile;   /* foundation it went to (a move home), else -1 */
    uint8_t height;
    uint8_t turned;
} Undo;

/* A position on the search's path: its moves are mv[base .. base + n) of the search's
 * move stack (a deep path of a multi-deck search holds hundreds of thousands of
 * positions, most with a few moves: a fixed array per frame would touch a page each). */
typedef struct {
    size_t base, mark; /* mark: log length when this position was reached */
    int n, idx;
} Frame;

typedef struct {
    uint64_t *t;
    size_t slots, mask, count, limit, max_slots;
    int shift;
} Table;

typedef struct {
    int decks, ncols, ncards, npiles, flags;
    uint8_t cols[MAXCOLS][MAXCARDS];
    int len[MAXCOLS], down[MAXCOLS], found[MAXPILES];
    int8_t col_of[MAXCARDS];
    uint8_t pos_of[MAXCARDS];
    int nhome;
    uint64_t ca[MAXCOLS], cb[MAXCOLS]; /* each column's two hashes */
    uint64_t pa[MAXCOLS], pb[MAXCOLS]; /* and its parts of the key (col_in) */
    uint64_t ha, hb;                   /* the key */
    Table tt;
    uint64_t nodes, max_nodes;
    double deadline, wall_deadline;
    int reason;
    int randomize;
    uint64_t rng;
    /* resumable: started (the root is in the table), pending_frame (the current position
     * is in the table, its moves not generated yet), finished (0, or 1 + the verdict; 3:
     * out of memory) */
    int started, pending_frame, finished;
    Undo *log;
    size_t log_len, log_cap;
    Frame *frames;
    size_t nframes, frames_cap;
    uint16_t *mv; /* the frames' moves */
    size_t mv_len, mv_cap;
} S;

/* ---------------------------------------------------------------- clocks, keys */

static int clock_out(const S *s) {
    if (s->deadline > 0 && cpu_now() >= s->deadline) return R_TIME;
    if (s->wall_deadline > 0 && now() >= s->wall_deadline) return R_WALL;
    return R_NONE;
}

#define SALT_A 0x6d756c7469644b41ULL
#define SALT_B 0x3c79ac492ba7b653ULL
#define SALT_DA 0x1c69b3f74ac4ae35ULL
#define SALT_DB 0x9e6c63d0676a9a99ULL
#define SALT_CA 0x2545f4914f6cdd1dULL
#define SALT_CB 0x5851f42d4c957f2dULL
#define SALT_FA 0x14057b7ef767814fULL
#define SALT_FB 0x7a3f9ab2d1c8e645ULL

static inline int face(int c) { return c % 52; }
static inline int rank0(int c) { return c % 13; }
static inline int suit(int c) { return (c % 52) / 13; }
static inline int is_red(int c) {
    int u = suit(c);
    return u == 1 || u == 2;
}
static inline int fits(int c, int p) { return rank0(p) == rank0(c) + 1 && is_red(c) != is_red(p); }

/* the card as the key sees it: its face with F_CANON, else the physical card */
static inline uint64_t card_id(const S *s, int c) { return (s->flags & F_CANON) ? (uint64_t)face(c) : (uint64_t)c; }
static inline uint64_t zc_mix(int h, uint64_t id, uint64_t salt) { return mix(((uint64_t)h << 8 | id) + salt); }

/* The values of the low heights, where nearly every card lies, come from a table (the
 * same values: mix() of the same input); higher ones are mixed on the fly. */
#define ZH 64
static uint64_t ZA[ZH][MAXCARDS], ZB[ZH][MAXCARDS];

static void init_keys(void) {
    for (int h = 0; h < ZH; h++)
        for (int id = 0; id < MAXCARDS; id++) {
            ZA[h][id] = zc_mix(h, (uint64_t)id, SALT_A);
            ZB[h][id] = zc_mix(h, (uint64_t)id, SALT_B);
        }
}
static inline uint64_t zd(int down, uint64_t salt) { return mix((uint64_t)down + salt); }
/* a column's part of the key: without F_CANON its place counts too */
static inline uint64_t col_part(const S *s, int k, uint64_t h, uint64_t salt) {
    return mix(h ^ salt ^ ((s->flags & F_CANON) ? 0 : mix((uint64_t)k + 0x51ed27f3ULL)));
}
/* a foundation's part: by suit with F_CANON (the piles of a suit are interchangeable) */
static inline uint64_t pile_part(const S *s, int p, uint64_t salt) {
    uint64_t who = (s->flags & F_CANON) ? (uint64_t)(p % 4) : (uint64_t)p;
    return mix((who << 8 | (uint64_t)s->found[p]) + salt);
}

static inline void col_out(S *s, int k) {
    s->ha -= s->pa[k];
    s->hb -= s->pb[k];
}
static inline void col_in(S *s, int k) {
    s->pa[k] = col_part(s, k, s->ca[k], SALT_CA);
    s->pb[k] = col_part(s, k, s->cb[k], SALT_CB);
    s->ha += s->pa[k];
    s->hb += s->pb[k];
}
static inline void pile_out(S *s, int p) {
    s->ha -= pile_part(s, p, SALT_FA);
    s->hb -= pile_part(s, p, SALT_FB);
}
static inline void pile_in(S *s, int p) {
    s->ha += pile_part(s, p, SALT_FA);
    s->hb += pile_part(s, p, SALT_FB);
}
static inline void card_xor(S *s, int k, int h, int c) {
    uint64_t id = card_id(s, c);
    if (h < ZH) {
        s->ca[k] ^= ZA[h][id];
        s->cb[k] ^= ZB[h][id];
    } else {
        s->ca[k] ^= zc_mix(h, id, SALT_A);
        s->cb[k] ^= zc_mix(h, id, SALT_B);
    }
}
static inline void down_xor(S *s, int k) {
    s->ca[k] ^= zd(s->down[k], SALT_DA);
    s->cb[k] ^= zd(s->down[k], SALT_DB);
}

/* The key from scratch. */
static void hash_position(S *s) {
    s->ha = s->hb = 0;
    for (int k = 0; k < s->ncols; k++) {
        s->ca[k] = s->cb[k] = 0;
        for (int h = 0; h < s->len[k]; h++) card_xor(s, k, h, s->cols[k][h]);
        down_xor(s, k);
        col_in(s, k);
    }
    for (int p = 0; p < s->npiles; p++) pile_in(s, p);
}

/* ---------------------------------------------------------------- moves */

/* The cards of column src from height from up onto column dst from height at, their keys
 * moved with them: the one copy of a move between columns, made or undone (src != dst). */
static inline void shift_cards(S *s, int src, int from, int dst, int at) {
    for (int i = from, n = s->len[src]; i < n; i++, at++) {
        int x = s->cols[src][i];
        card_xor(s, src, i, x);
        s->cols[dst][at] = (uint8_t)x;
        card_xor(s, dst, at, x);
        s->col_of[x] = (int8_t)dst;
        s->pos_of[x] = (uint8_t)at;
    }
    s->len[dst] = at;
    s->len[src] = from;
}

/* The foundation the card goes to: the first of its suit at the rank below, or -1. */
static inline int home_pile(const S *s, int c) {
    int r = rank0(c);
    for (int p = suit(c); p < s->npiles; p += 4)
        if (s->found[p] == r) return p;
    return -1;
}

static int log_room(S *s) {
    if (s->log_len < s->log_cap) return 0;
    size_t cap = s->log_cap ? s->log_cap * 2 : 1024;
    Undo *nl = realloc(s->log, cap * sizeof(Undo));
    if (!nl) return -1;
    s->log = nl;
    s->log_cap = cap;
    return 0;
}

/* Make a move known to be legal; log it for undo. */
static int push_move(S *s, int move) {
    int c = move >> SHIFT, d = move & HOME_DEST;
    int k = s->col_of[c], h = s->pos_of[c];
    if (log_room(s) < 0) return -1;
    Undo u = {(uint16_t)move, (int8_t)k, -1, (uint8_t)h, 0};
    col_out(s, k);
    if (d == HOME_DEST) {
        int p = home_pile(s, c);
        pile_out(s, p);
        s->found[p]++;
        pile_in(s, p);
        card_xor(s, k, h, c);
        s->len[k]--;
        s->col_of[c] = HOME;
        s->nhome++;
        u.pile = (int8_t)p;
    } else {
        col_out(s, d);
        shift_cards(s, k, h, d, s->len[d]);
        col_in(s, d);
    }
    if (h > 0 && h == s->down[k]) {
        down_xor(s, k);
        s->down[k]--;
        down_xor(s, k);
        u.turned = 1;
    }
    col_in(s, k);
    s->log[s->log_len++] = u;
    return 0;
}

static void pop_move(S *s) {
    Undo u = s->log[--s->log_len];
    int c = u.move >> SHIFT, d = u.move & HOME_DEST, k = u.src, h = u.height;
    col_out(s, k);
    if (u.turned) {
        down_xor(s, k);
        s->down[k]++;
        down_xor(s, k);
    }
    if (d == HOME_DEST) {
        int p = u.pile;
        pile_out(s, p);
        s->found[p]--;
        pile_in(s, p);
        s->cols[k][h] = (uint8_t)c;
        card_xor(s, k, h, c);
        s->len[k] = h + 1;
        s->col_of[c] = (int8_t)k;
        s->pos_of[c] = (uint8_t)h;
        s->nhome--;
    } else {
        col_out(s, d);
        shift_cards(s, d, s->pos_of[c], k, h);
        col_in(s, d);
    }
    col_in(s, k);
}

static inline int face_up(const S *s, int c) {
    int k = s->col_of[c];
    return k != HOME && s->pos_of[c] >= s->down[k];
}

/* Copies of face f not yet home. */
static inline int copies_out(const S *s, int f) {
    int n = 0;
    for (int d = 0; d < s->decks; d++) n += s->col_of[d * 52 + f] != HOME;
    return n;
}

/* Safe auto-foundation with duplicates (docs/solver.md): the exposed card c may go home;
 * every copy of every card that could be placed on it is home (nothing can need it in
 * the tableau again); and its suit has a foundation at the rank below for each copy of
 * its face still out, so sending this one first takes no place another copy needs. */
static int safe_home(const S *s, int c) {
    int r = rank0(c), u = suit(c), ready = 0;
    for (int p = u; p < s->npiles; p += 4) ready += s->found[p] == r;
    if (!ready) return 0;
    if (r > 0) {
        /* the cards that may be placed on c: rank below, the other colour */
        int u1 = is_red(c) ? 0 : 1, u2 = is_red(c) ? 3 : 2;
        if (copies_out(s, u1 * 13 + r - 1) || copies_out(s, u2 * 13 + r - 1)) return 0;
    }
    return ready >= copies_out(s, face(c));
}

/* only_col >= 0: the last move took a pile from that column to another, so the
 * foundations did not change and only that column's new top can have become safe. */
static int apply_autos(S *s, int only_col) {
    if (!(s->flags & F_AUTO)) return 0;
    if (only_col >= 0 && !(s->len[only_col] && safe_home(s, s->cols[only_col][s->len[only_col] - 1]))) return 0;
    int again = 1;
    while (again) {
        again = 0;
        for (int k = 0; k < s->ncols; k++) {
            if (s->len[k] && safe_home(s, s->cols[k][s->len[k] - 1])) {
                if (push_move(s, s->cols[k][s->len[k] - 1] << SHIFT | HOME_DEST) < 0) return -1;
                again = 1;
            }
        }
    }
    return 0;
}

static inline int move_source(const S *s, int move) {
    return (move & HOME_DEST) == HOME_DEST ? -1 : s->col_of[move >> SHIFT];
}

/* The order of the moves, as in the single-deck search: a higher key first. */
static int order_key(const S *s, int move) {
    int c = move >> SHIFT, d = move & HOME_DEST;
    int k = s->col_of[c], h = s->pos_of[c], key;
    if (h > 0 && h == s->down[k]) /* turns a card */
        key = 1000 + 10 * s->down[k] + (d == HOME_DEST ? 5 : 0);
    else if (d == HOME_DEST)
        key = 600;
    else if (h == 0)
        key = 300; /* empties a column */
    else if (s->len[d] == 0)
        key = 100; /* a King into an empty column, turning nothing */
    else if (fits(c, s->cols[k][h - 1]))
        key = 0; /* a pile between two parents */
    else
        key = 200; /* frees a face-up card that sat on a non-parent */
    return key << 8;
}

static void sort_moves(uint16_t *out, int *keys, int n) {
    for (int i = 1; i < n; i++) { /* insertion sort, descending, stable */
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

/* The legal moves (every empty column offered unless F_ONE_EMPTY), in search order. */
static int gen_moves(S *s, uint16_t *out, int order) {
    int n = 0, empties[MAXCOLS], ne = 0, keys[MAXMOVES];
    for (int k = 0; k < s->ncols; k++) {
        if (!s->len[k]) {
            empties[ne++] = k;
            continue;
        }
        int top = s->cols[k][s->len[k] - 1], r = rank0(top);
        if (home_pile(s, top) >= 0) out[n++] = (uint16_t)(top << SHIFT | HOME_DEST);
        if (r == 0) continue;
        int u1 = is_red(top) ? 0 : 1, u2 = is_red(top) ? 3 : 2;
        for (int d = 0; d < s->decks; d++) {
            for (int j = 0; j < 2; j++) {
                int ch = d * 52 + (j ? u2 : u1) * 13 + r - 1, kc = s->col_of[ch];
                if (kc == HOME || kc == k || s->pos_of[ch] < s->down[kc]) continue;
                out[n++] = (uint16_t)(ch << SHIFT | k);
            }
        }
    }
    if (ne) {
        if (s->flags & F_ONE_EMPTY) ne = 1;
        for (int d = 0; d < s->decks; d++) {
            for (int u = 0; u < 4; u++) {
                int kg = d * 52 + u * 13 + 12, kc = s->col_of[kg];
                if (kc == HOME || s->pos_of[kg] == 0 || s->pos_of[kg] < s->down[kc]) continue;
                for (int e = 0; e < ne; e++) out[n++] = (uint16_t)(kg << SHIFT | empties[e]);
            }
        }
    }
    if (order) {
        for (int i = 0; i < n; i++) {
            keys[i] = order_key(s, out[i]);
            if (s->randomize) keys[i] += (int)(splitmix(&s->rng) & 255);
        }
        sort_moves(out, keys, n);
    }
    return n;
}

/* ---------------------------------------------------------------- cards that can never go home (F_STUCK) */

/* The single-deck rule's least fixpoint (docs/solver.md, "Cards that can never go
 * home"), over physical cards, where a rule that needs "a parent" or "the predecessor"
 * takes any copy of that face:
 *   E(c), c becomes the top of its column: it is the top now, or the card lying on it
 *         now does B;
 *   B(c), c moves as the lowest card of a pile (or alone, home): c is face up now or
 *         E(c); and H(c), or E(p) for some copy p, not home, of a parent face, or c is a
 *         King not at the bottom of its column and some column can be empty (one is
 *         now, or some column's bottom card does B);
 *   H(c), c goes home: E(c), and a foundation of its suit is at the rank below now, or
 *         some copy of its predecessor face, not home now, does H (a foundation below
 *         that rank gets there only by taking such a copy; one above it never comes
 *         back down).
 * Every event of any line of play from here is in the fixpoint, by induction on the time
 * it first happens; a card outside H never goes home, and the position is lost. The
 * relaxation ignores that two copies need two foundations and two piles two parents:
 * it may miss a loss, never invent one. */
static int never_home(const S *s) {
    uint8_t E[MAXCARDS] = {0}, B[MAXCARDS] = {0}, H[MAXCARDS] = {0};
    int empty = 0, out = 0, home = 0;
    for (int k = 0; k < s->ncols; k++) {
        out += s->len[k];
        if (!s->len[k])
            empty = 1;
        else
            E[s->cols[k][s->len[k] - 1]] = 1;
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        /* B, and the E it gives the card beneath: each column from the top down, so a
         * chain down one column takes one sweep */
        for (int k = 0; k < s->ncols; k++) {
            for (int h = s->len[k] - 1; h >= 0; h--) {
                int c = s->cols[k][h], r = rank0(c);
                if (B[c] || !(h >= s->down[k] || E[c])) continue;
                int b = H[c];
                if (!b && r < 12) {
                    int u1 = is_red(c) ? 0 : 1, u2 = is_red(c) ? 3 : 2;
                    for (int d = 0; d < s->decks && !b; d++) {
                        int p1 = d * 52 + u1 * 13 + r + 1, p2 = d * 52 + u2 * 13 + r + 1;
                        b = (s->col_of[p1] != HOME && E[p1]) || (s->col_of[p2] != HOME && E[p2]);
                    }
                }
                if (!b && r == 12 && h > 0) b = empty;
                if (!b) continue;
                B[c] = 1;
                changed = 1;
                if (h > 0)
                    E[s->cols[k][h - 1]] = 1;
                else
                    empty = 1;
            }
        }
        /* H: each suit from the Ace up, so a chain of ranks takes one sweep */
        for (int u = 0; u < 4; u++) {
            for (int r = 0; r < 13; r++) {
                int ready = 0; /* a foundation at r now, or a copy of the predecessor goes home */
                for (int p = u; p < s->npiles && !ready; p += 4) ready = s->found[p] == r;
                for (int d = 0; d < s->decks && !ready && r > 0; d++) {
                    int x = d * 52 + u * 13 + r - 1;
                    ready = s->col_of[x] != HOME && H[x];
                }
                if (!ready) continue;
                for (int d = 0; d < s->decks; d++) {
                    int c = d * 52 + u * 13 + r;
                    if (s->col_of[c] == HOME || H[c] || !E[c]) continue;
                    H[c] = 1;
                    home++;
                    changed = 1;
                }
            }
        }
        if (home == out) return 0;
    }
    return 1;
}

/* ---------------------------------------------------------------- table */

static int table_setup(Table *t, size_t slots) {
    t->t = alloc_words(2 * slots);
    if (!t->t) return -1;
    t->slots = slots;
    t->mask = slots - 1;
    t->shift = 64 - __builtin_ctzll((unsigned long long)slots);
    t->limit = (size_t)((double)slots * (slots >= t->max_slots ? TT_LOAD_CAP : TT_LOAD));
    t->count = 0;
    return 0;
}

static void tt_put(uint64_t *tt, size_t mask, int shift, uint64_t a, uint64_t b) {
    size_t i = (size_t)(b >> shift);
    while (tt[2 * i] || tt[2 * i + 1]) i = (i + 1) & mask;
    tt[2 * i] = a;
    tt[2 * i + 1] = b;
}

/* Double the table (a new one, the entries rehashed, the old one freed: 1.5 times the
 * table's bytes for a moment); -1 at the cap or out of memory. */
static int table_grow(Table *t) {
    if (t->slots * 2 > t->max_slots) return -1;
    Table old = *t;
    if (table_setup(t, old.slots * 2) < 0) {
        *t = old;
        return -1;
    }
    for (size_t i = 0; i < old.slots; i++)
        if (old.t[2 * i] || old.t[2 * i + 1]) tt_put(t->t, t->mask, t->shift, old.t[2 * i], old.t[2 * i + 1]);
    t->count = old.count;
    free_words(old.t, 2 * old.slots);
    return 0;
}

/* Insert the key (a, b), never (0, 0): 1 new, 0 already there, -1 full. */
static int table_insert(Table *t, uint64_t a, uint64_t b) {
    size_t i = (size_t)(b >> t->shift);
    while (t->t[2 * i] || t->t[2 * i + 1]) {
        if (t->t[2 * i] == a && t->t[2 * i + 1] == b) return 0;
        i = (i + 1) & t->mask;
    }
    if (t->count >= t->limit) {
        if (table_grow(t) < 0) return -1;
        tt_put(t->t, t->mask, t->shift, a, b);
    } else {
        t->t[2 * i] = a;
        t->t[2 * i + 1] = b;
    }
    t->count++;
    return 1;
}

static int tt_insert(S *s) {
    uint64_t a = s->ha, b = s->hb;
    if (!a && !b) a = 1;
    return table_insert(&s->tt, a, b);
}

/* ---------------------------------------------------------------- search */

/* 1 when the last move took a pile from one parent of its lowest card to another (no
 * card turned, none went home after it): the position before was tested and not lost,
 * and the test gives both the same answer (docs/solver.md, as for one deck: before, c
 * lies on p and the other parent q is the top, so B(c) and then E(p) hold at once; after,
 * the same with p and q swapped; the rest is equal), so it is not run again. */
static int between_parents(const S *s) {
    if (!s->log_len) return 0;
    Undo u = s->log[s->log_len - 1];
    int c = u.move >> SHIFT;
    return (u.move & HOME_DEST) != HOME_DEST && !u.turned && u.height > 0 && fits(c, s->cols[u.src][u.height - 1]);
}

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
    if (s->mv_cap - s->mv_len < MAXMOVES) {
        size_t cap = s->mv_cap ? s->mv_cap * 2 : 1 << 14;
        uint16_t *nm = realloc(s->mv, cap * sizeof(uint16_t));
        if (!nm) return -1;
        s->mv = nm;
        s->mv_cap = cap;
    }
    Frame *f = new_frame(s);
    if (!f) return -1;
    f->base = s->mv_len;
    /* a lost position is a leaf: its moves are never generated */
    f->n = (s->flags & F_STUCK) && !between_parents(s) && never_home(s) ? 0 : gen_moves(s, s->mv + f->base, 1);
    s->mv_len += (size_t)f->n;
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

static void pop_to(S *s, size_t mark) {
    while (s->log_len > mark) pop_move(s);
}

static int fail_memory(S *s) {
    s->reason = R_MEMORY;
    s->finished = 3;
    return 2;
}

/* 0 solved, 1 exhausted, 2 budget out (s->reason). A search stopped by a node or time
 * budget resumes exactly where it stopped when called again. */
static int search(S *s) {
    if (s->finished) {
        if (s->finished == 3) s->reason = R_MEMORY;
        return s->finished - 1;
    }
    if (!s->started) {
        if (apply_autos(s, -1) < 0) return fail_memory(s);
        if (s->nhome == s->ncards) {
            s->finished = 1;
            return 0;
        }
        if (tt_insert(s) < 0) return fail_memory(s);
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
        if (f->idx >= f->n) {
            s->mv_len = f->base;
            s->nframes--;
            /* undo the autos of this position and the move that led here */
            if (s->nframes) pop_to(s, s->frames[s->nframes - 1].mark);
            continue;
        }
        int move = s->mv[f->base + (size_t)f->idx++];
        size_t mark = s->log_len;
        int src = move_source(s, move);
        if (push_move(s, move) < 0 || apply_autos(s, src) < 0) return fail_memory(s);
        if (s->nhome == s->ncards) {
            s->finished = 1;
            return 0;
        }
        int r = tt_insert(s);
        if (r < 0) return fail_memory(s);
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

/* Read a list of ints of length n (want >= 0) or up to MAXCOLS (want < 0) into out. */
static int read_ints(PyObject *seq, int want, long lo, long hi, const char *what, int *out, int *n_out) {
    PyObject *f = PySequence_Fast(seq, "expected a sequence of ints");
    if (!f) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(f);
    if ((want >= 0 && n != want) || (want < 0 && (n < 1 || n > MAXCOLS))) {
        Py_DECREF(f);
        if (want >= 0)
            PyErr_Format(PyExc_ValueError, "%s must hold %d counts", what, want);
        else
            PyErr_Format(PyExc_ValueError, "%s must hold 1 to %d counts", what, MAXCOLS);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long v;
        if (read_int(PySequence_Fast_GET_ITEM(f, i), lo, hi, what, &v) < 0) {
            Py_DECREF(f);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(f);
    if (n_out) *n_out = (int)n;
    return 0;
}

/* decks, columns (physical cards, bottom first), face-down counts, foundations (pile p
 * holds suit p % 4): every face's copies in the tableau plus those its suit's
 * foundations hold make `decks`. */
static int read_position(S *s, int decks, PyObject *columns, PyObject *down, PyObject *found) {
    if (decks < 2 || decks > MAXDECKS) {
        PyErr_SetString(PyExc_ValueError, "decks must be 2, 3 or 4");
        return -1;
    }
    s->decks = decks;
    s->ncards = 52 * decks;
    s->npiles = 4 * decks;
    uint8_t seen[MAXCARDS] = {0};
    PyObject *cf = PySequence_Fast(columns, "columns must be a sequence of sequences");
    if (!cf) return -1;
    Py_ssize_t ncols = PySequence_Fast_GET_SIZE(cf);
    if (ncols < 1 || ncols > MAXCOLS) {
        Py_DECREF(cf);
        PyErr_Format(PyExc_ValueError, "columns must hold 1 to %d columns", MAXCOLS);
        return -1;
    }
    s->ncols = (int)ncols;
    for (int k = 0; k < s->ncols; k++) {
        PyObject *col = PySequence_Fast(PySequence_Fast_GET_ITEM(cf, k), "a column must be a sequence of cards");
        if (!col) {
            Py_DECREF(cf);
            return -1;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(col);
        if (n > s->ncards) {
            Py_DECREF(col);
            Py_DECREF(cf);
            PyErr_SetString(PyExc_ValueError, "a column holds more cards than the decks");
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            long v;
            if (read_int(PySequence_Fast_GET_ITEM(col, i), 0, s->ncards - 1, "a card", &v) < 0) {
                Py_DECREF(col);
                Py_DECREF(cf);
                return -1;
            }
            if (seen[v]) {
                Py_DECREF(col);
                Py_DECREF(cf);
                PyErr_Format(PyExc_ValueError, "card %ld appears twice", v);
                return -1;
            }
            seen[v] = 1;
            s->cols[k][i] = (uint8_t)v;
            s->col_of[v] = (int8_t)k;
            s->pos_of[v] = (uint8_t)i;
        }
        s->len[k] = (int)n;
        Py_DECREF(col);
    }
    Py_DECREF(cf);
    int n;
    if (read_ints(down, s->ncols, 0, s->ncards, "a face-down count", s->down, &n) < 0) return -1;
    for (int k = 0; k < s->ncols; k++) {
        if (s->down[k] > s->len[k] || (s->len[k] && s->down[k] == s->len[k])) {
            PyErr_Format(PyExc_ValueError, "column %d cannot have %d face-down cards", k + 1, s->down[k]);
            return -1;
        }
    }
    if (read_ints(found, s->npiles, 0, 13, "a foundation count", s->found, &n) < 0) return -1;
    s->nhome = 0;
    for (int f = 0; f < 52; f++) {
        int home = 0, out = 0;
        for (int p = f / 13; p < s->npiles; p += 4) home += s->found[p] > f % 13;
        for (int d = 0; d < decks; d++) out += seen[d * 52 + f];
        if (home + out != decks) {
            PyErr_Format(PyExc_ValueError, "face %d: %d copies in the tableau and %d home make not %d", f, out, home,
                         decks);
            return -1;
        }
        for (int d = 0; d < decks; d++)
            if (!seen[d * 52 + f]) {
                s->col_of[d * 52 + f] = HOME;
                s->pos_of[d * 52 + f] = 0;
            }
        s->nhome += home;
    }
    return 0;
}

static void free_search(S *s) {
    if (!s) return;
    free_words(s->tt.t, 2 * s->tt.slots);
    free(s->log);
    free(s->frames);
    free(s->mv);
    free(s);
}

static S *new_search(int decks, PyObject *columns, PyObject *down, PyObject *found, int flags, Py_ssize_t memory_mb,
                     unsigned long long seed, int randomize, unsigned long long expect_nodes) {
    if (flags < 0 || (flags & ~F_ALL)) {
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
    s->flags = flags;
    s->randomize = randomize;
    s->rng = seed;
    if (read_position(s, decks, columns, down, found) < 0) {
        free(s);
        return NULL;
    }
    hash_position(s);
    size_t cap = (size_t)memory_mb << 20, slots = 1024;
    while (slots * 2 * 16 <= cap) slots *= 2;
    s->tt.max_slots = slots;
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
    PyObject *moves = PyList_New(verdict == 0 ? (Py_ssize_t)s->log_len : 0);
    if (!moves) return NULL;
    if (verdict == 0) {
        for (size_t i = 0; i < s->log_len; i++) {
            PyObject *m = PyLong_FromLong(s->log[i].move);
            if (!m) {
                Py_DECREF(moves);
                return NULL;
            }
            PyList_SET_ITEM(moves, (Py_ssize_t)i, m);
        }
    }
    return Py_BuildValue("(iNKs)", verdict, moves, (unsigned long long)(s->nodes - nodes0),
                         verdict == 2 ? REASONS[s->reason] : "");
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"decks", "columns", "down", "found", "flags", "max_nodes", "seconds", "memory_mb",
                             "seed", "randomize", "wall_seconds", NULL};
    int decks, flags = F_ALL, randomize = 0;
    unsigned long long max_nodes = 0, seed = 0;
    PyObject *max_nodes_obj = NULL, *seed_obj = NULL;
    double seconds = 0.0, wall_seconds = 0.0;
    Py_ssize_t memory_mb = 256;
    PyObject *columns, *down, *found;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOO|iOdnOpd", kwlist, &decks, &columns, &down, &found, &flags,
                                     &max_nodes_obj, &seconds, &memory_mb, &seed_obj, &randomize, &wall_seconds))
        return NULL;
    if (max_nodes_obj && read_u64(max_nodes_obj, "max_nodes", &max_nodes) < 0) return NULL;
    if (seed_obj && read_u64(seed_obj, "seed", &seed) < 0) return NULL;
    if (check_seconds(seconds) < 0 || check_seconds(wall_seconds) < 0) return NULL;
    unsigned long long expect = max_nodes && max_nodes < START_NODES ? max_nodes : START_NODES;
    S *s = new_search(decks, columns, down, found, flags, memory_mb, seed, randomize, expect);
    if (!s) return NULL;
    PyObject *result = run_search(s, max_nodes, seconds, wall_seconds);
    free_search(s);
    return result;
}

/* ---------------------------------------------------------------- Search objects */

typedef struct {
    PyObject_HEAD
    S *s;
    int busy; /* a run is in progress (another thread must not touch s) */
} SearchObject;

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"decks", "columns", "down", "found", "flags", "memory_mb", "seed", "randomize",
                             "expect_nodes", NULL};
    int decks, flags = F_ALL, randomize = 0;
    unsigned long long seed = 0, expect = 0;
    PyObject *seed_obj = NULL, *expect_obj = NULL;
    Py_ssize_t memory_mb = 256;
    PyObject *columns, *down, *found;
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the search is running in another thread");
        return -1;
    }
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iOOO|inOpO", kwlist, &decks, &columns, &down, &found, &flags,
                                     &memory_mb, &seed_obj, &randomize, &expect_obj))
        return -1;
    if (seed_obj && read_u64(seed_obj, "seed", &seed) < 0) return -1;
    if (expect_obj && read_u64(expect_obj, "expect_nodes", &expect) < 0) return -1;
    S *s = new_search(decks, columns, down, found, flags, memory_mb, seed, randomize, expect);
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

static PyObject *Search_get_narrowed(SearchObject *self, void *closure) {
    (void)self;
    (void)closure;
    Py_RETURN_FALSE; /* the table is always wide: 128-bit keys */
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Search_run, METH_VARARGS | METH_KEYWORDS,
     "run(max_nodes=0, seconds=0.0, wall_seconds=0.0) -> (verdict, moves, nodes of this run, reason); resumes where "
     "the last run stopped"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "positions searched so far, all runs", NULL},
    {"narrowed", (getter)Search_get_narrowed, NULL, "always False: this search's table is never narrow", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "yukon.solver._cmulti.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(decks, columns, down, found, flags=F_ALL, memory_mb=256, seed=0, randomize=False, "
              "expect_nodes=0): a multi-deck depth-first search that runs in resumable slices.",
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_init = (initproc)Search_init,
    .tp_new = PyType_GenericNew,
};

/* legal_moves(decks, columns, down, found) -> the move generator's moves (every empty
 * column offered, unordered), for testing it against the engine. */
static PyObject *py_legal_moves(PyObject *self, PyObject *args) {
    int decks;
    PyObject *columns, *down, *found;
    uint16_t moves[MAXMOVES];
    (void)self;
    if (!PyArg_ParseTuple(args, "iOOO", &decks, &columns, &down, &found)) return NULL;
    S *s = calloc(1, sizeof(S));
    if (!s) return PyErr_NoMemory();
    s->flags = F_CANON;
    if (read_position(s, decks, columns, down, found) < 0) {
        free(s);
        return NULL;
    }
    int n = gen_moves(s, moves, 0);
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
     "legal_moves(decks, columns, down, found) -> list of moves (every empty column offered)"},
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(decks, columns, down, found, flags=F_ALL, max_nodes=0, seconds=0.0, memory_mb=256, seed=0, "
     "randomize=False, wall_seconds=0.0) -> (verdict, moves, nodes, reason); seconds is CPU time"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_cmulti",
                                    "Depth-first search core of the multi-deck solver.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__cmulti(void) {
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
        PyModule_AddIntConstant(m, "F_CANON", F_CANON) < 0 || PyModule_AddIntConstant(m, "F_STUCK", F_STUCK) < 0 ||
        PyModule_AddIntConstant(m, "F_ALL", F_ALL) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
