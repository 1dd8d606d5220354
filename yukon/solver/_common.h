/*
 * _common.h: what the two C cores of the solver share (_csolver.c, one deck; _cmulti.c,
 * several decks): the clocks of the budgets, the random numbers of the restarts, the
 * zeroed memory of the transposition tables, and the reading of Python arguments.
 * Included by each core; every function is static, so each extension has its own copy.
 */
#ifndef YUKON_SOLVER_COMMON_H
#define YUKON_SOLVER_COMMON_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <time.h>
#include <sys/mman.h>

/* splitmix64's finaliser: a well-mixed 64-bit function of z */
static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* the next number of a splitmix64 stream */
static inline uint64_t splitmix(uint64_t *state) { return mix(*state += 0x9E3779B97F4A7C15ULL); }

static inline double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The budget is CPU time of the thread that runs the search, so a verdict does not
 * depend on how busy the machine is (the search never blocks, so its CPU time is its
 * work); the wall clock is only an optional cap for callers that must answer in time. */
static inline double cpu_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The table is zeroed memory from mmap, with transparent huge pages where the kernel
 * allows them (random access over hundreds of MB otherwise misses the TLB each time), but
 * only from 32 MB (2 million 16-byte slots): the kernel zeroes a huge page whole at its
 * first touch, so a short search in a table of a few MB paid for zeroing all of it, 2 MB
 * at a time, for the few hundred slots it used; a long search's table grows past 32 MB
 * and gets them then (docs/solver.md, "Table"). */
#define HUGE_PAGES_FROM ((size_t)32 << 20)

/* The positions a table is first sized for when the search says nothing better: a
 * one-shot solve's node budget is only a ceiling. The table doubles as it fills, so a
 * long search pays a few doublings, and a short one does not fault in pages it never
 * uses. */
#define START_NODES (1ULL << 10)

/* Ask for huge pages on a mapping of HUGE_PAGES_FROM bytes or more. */
static inline void advise_huge(void *p, size_t bytes) {
#ifdef MADV_HUGEPAGE
    if (bytes >= HUGE_PAGES_FROM) (void)madvise(p, bytes, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

static inline uint64_t *alloc_words(size_t words) {
    size_t bytes = words * 8;
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    advise_huge(p, bytes);
    return (uint64_t *)p;
}

static inline void free_words(uint64_t *p, size_t words) {
    if (p) munmap(p, words * 8);
}

static inline int read_int(PyObject *o, long lo, long hi, const char *what, long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || v < lo || v > hi) {
        PyErr_Format(PyExc_ValueError, "%s must be in %ld..%ld", what, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

static inline int read_u64(PyObject *o, const char *what, unsigned long long *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1; /* OverflowError for < 0 or >= 2**64 */
    *out = v;
    return 0;
}

static inline int check_seconds(double seconds) {
    if (!(seconds >= 0.0) || seconds > 1e7) {
        PyErr_SetString(PyExc_ValueError, "seconds must be between 0 (no limit) and 1e7");
        return -1;
    }
    return 0;
}

#endif
