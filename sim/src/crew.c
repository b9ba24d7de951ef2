/*
 * crew.c - phases of units run to their end (crew.h).
 *
 * A thread runs a helper's unit only while it holds it (`held`, taken by a compare-and-swap): a
 * helper keeps its own units from its first call in a phase until they are done or the leader
 * goes alone; the leader holds a helper's for a call, when the helper is not holding it. The
 * leader's own units no other thread runs. A unit done is marked with its phase (`done`,
 * release) and counted (`ndone`), and the phase ends when all are; a helper that is late finds
 * its units done in that phase or a later one and calls none. The leader publishes a phase,
 * and a change of mode, by storing it and waking sleeping helpers; a helper sleeps only after
 * announcing itself (sleepers) and re-checking, under the mutex, that it has nothing to do, and
 * the leader reads the announcement after its own store (both sequentially consistent), so no
 * wake-up is lost.
 */
#define _POSIX_C_SOURCE 200809L
#include "crew.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* How long a helper with nothing to do spins before it sleeps. The leader's part between two
 * phases takes a few to some tens of microseconds (docs/sim.md "Threads"); a scheduler time
 * slice is milliseconds. */
#define SPIN_NS 50000u
#define NS_PER_S 1000000000ull
/* Polls between two reads of the clock, and between two sched_yield()s: on a busy machine the
 * thread being waited for may be queued behind the waiter on the same core. */
#define POLLS_PER_CLOCK 64u
/* The leader's rounds over the units between two looks at the epoch's clock. */
#define ROUNDS_PER_CHECK 16u

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * NS_PER_S + (uint64_t)ts.tv_nsec;
}

/* The units of thread t: [share_lo(c, t), share_lo(c, t + 1)). */
static uint32_t share_lo(const crew_t *c, uint32_t t) {
  return (uint32_t)((uint64_t)t * c->nunits / c->nthreads);
}

static uint64_t phase_of(crew_t *c) {
  return atomic_load_explicit(&c->phase, memory_order_acquire);
}

/* Unit u is done in phase ph, or in a later one (a helper still at ph finds it so and leaves). */
static int is_done(crew_t *c, uint32_t u, uint64_t ph) {
  return atomic_load_explicit(&c->done[u], memory_order_acquire) >= ph;
}

/* crew_t.held: a unit free, held for a call, or kept by its own thread across calls. */
enum { UNIT_FREE, UNIT_HELD, UNIT_KEPT };

static int try_hold(crew_t *c, uint32_t u) {
  int free_ = UNIT_FREE;
  return atomic_compare_exchange_strong_explicit(&c->held[u], &free_, UNIT_HELD,
                                                 memory_order_acquire, memory_order_relaxed);
}

static void keep(crew_t *c, uint32_t u) {
  atomic_store_explicit(&c->held[u], UNIT_KEPT, memory_order_relaxed);
}

static int kept(crew_t *c, uint32_t u) {
  return atomic_load_explicit(&c->held[u], memory_order_relaxed) == UNIT_KEPT;
}

static void let_go(crew_t *c, uint32_t u) {
  atomic_store_explicit(&c->held[u], UNIT_FREE, memory_order_release);
}

/* Take unit u of phase ph for a call: 0 if another thread holds it, or if it was done in the
 * meantime (by the thread that held it: its job must not be called again in the phase). */
static int take(crew_t *c, uint32_t u, uint64_t ph) {
  if (!try_hold(c, u)) return 0;
  if (is_done(c, u, ph)) {
    let_go(c, u);
    return 0;
  }
  return 1;
}

/* One call of unit u's job (held by the caller) in phase ph; its result. Done: marked, counted
 * and let go. */
static int call(crew_t *c, uint32_t u, uint64_t ph) {
  int r = c->job(c->ctx, u);
  if (r == CREW_DONE) {
    atomic_store_explicit(&c->done[u], ph, memory_order_release);
    atomic_fetch_add_explicit(&c->ndone, 1u, memory_order_acq_rel);
    let_go(c, u);
  }
  return r;
}

/* What a helper waits for: a phase with its units not all done, while the mode is together. */
static int nothing_to_do(crew_t *c, uint64_t self) {
  if (atomic_load(&c->quit)) return 0;
  if (atomic_load(&c->alone)) return 1;
  uint64_t ph = phase_of(c);
  for (uint32_t u = share_lo(c, (uint32_t)self); u < share_lo(c, (uint32_t)self + 1u); u++)
    if (!is_done(c, u, ph)) return 0;
  return 1;
}

/* Spin while waiting(c, arg), yielding the core every POLLS_PER_CLOCK polls, for at most
   SPIN_NS; returns whether it is still waiting (then the caller sleeps on a condition). */
static int spin(crew_t *c, int (*waiting)(crew_t *, uint64_t), uint64_t arg) {
  uint64_t t0 = 0;
  for (uint32_t i = 1; waiting(c, arg); i++) {
    cpu_relax();
    if (i % POLLS_PER_CLOCK == 0) {
      uint64_t t = now_ns();
      if (t0 == 0) t0 = t;
      else if (t - t0 > SPIN_NS) break;
      sched_yield();
    }
  }
  return waiting(c, arg);
}

/* A helper runs its units, holding them, until they are done or the leader goes alone. */
static void run_share(crew_t *c, uint32_t self) {
  const uint64_t ph = phase_of(c);
  const uint32_t lo = share_lo(c, self), hi = share_lo(c, self + 1u);
  uint32_t polls = 0;
  for (;;) {
    int pending = 0, moved = 0;
    for (uint32_t u = lo; u < hi; u++) {
      if (is_done(c, u, ph)) continue;
      pending = 1;
      if (!kept(c, u)) {
        if (!take(c, u, ph)) continue; /* the leader runs it for a call, or ran it to its end */
        keep(c, u);
      }
      moved |= call(c, u, ph) == CREW_MOVED;
    }
    if (!pending) return;
    if (atomic_load(&c->alone)) break;
    if (!moved) {
      cpu_relax();
      if (++polls % POLLS_PER_CLOCK == 0) sched_yield();
    }
  }
  for (uint32_t u = lo; u < hi; u++)
    if (kept(c, u)) let_go(c, u);
}

static void *helper(void *arg) {
  crew_t *c = ((crew_arg_t *)arg)->c;
  uint32_t self = ((crew_arg_t *)arg)->self;
  for (;;) {
    if (spin(c, nothing_to_do, self)) {
      pthread_mutex_lock(&c->mu);
      atomic_fetch_add(&c->sleepers, 1u);
      while (nothing_to_do(c, self)) pthread_cond_wait(&c->wake_cv, &c->mu);
      atomic_fetch_sub(&c->sleepers, 1u);
      pthread_mutex_unlock(&c->mu);
    }
    if (atomic_load(&c->quit)) return NULL;
    run_share(c, self);
  }
}

static void wake_helpers(crew_t *c) {
  if (atomic_load(&c->sleepers) > 0) {
    pthread_mutex_lock(&c->mu);
    pthread_cond_broadcast(&c->wake_cv);
    pthread_mutex_unlock(&c->mu);
  }
}

int crew_start(crew_t *c, uint32_t nthreads, uint32_t nunits, crew_job_fn job, crew_clock_fn clock,
               void *ctx) {
  c->nthreads = nthreads;
  c->nunits = nunits;
  c->job = job;
  c->clock = clock;
  c->ctx = ctx;
  c->started = 0;
  atomic_init(&c->phase, 0u);
  atomic_init(&c->alone, 0);
  atomic_init(&c->ndone, 0u);
  atomic_init(&c->sleepers, 0u);
  atomic_init(&c->quit, 0);
  crew_pick_init(&c->pick);
  c->epoch_len = CREW_EPOCH_PROGRESS;
  c->epoch_start_ns = 0;
  c->epoch_start = 0;
  c->progress = c->progress_alone = 0;
  c->rounds = 0;
  c->th = calloc(nthreads, sizeof *c->th);
  c->arg = calloc(nthreads, sizeof *c->arg);
  c->done = calloc(nunits, sizeof *c->done);
  c->held = calloc(nunits, sizeof *c->held);
  if (c->th == NULL || c->arg == NULL || c->done == NULL || c->held == NULL) {
    free(c->th);
    free(c->arg);
    free(c->done);
    free(c->held);
    return ENOMEM;
  }
  for (uint32_t u = 0; u < nunits; u++) {
    atomic_init(&c->done[u], 0u);
    atomic_init(&c->held[u], 0);
  }
  int rc = pthread_mutex_init(&c->mu, NULL);
  if (rc == 0 && (rc = pthread_cond_init(&c->wake_cv, NULL)) != 0) pthread_mutex_destroy(&c->mu);
  if (rc != 0) {
    free(c->th);
    free(c->arg);
    free(c->done);
    free(c->held);
    return rc;
  }
  for (; c->started + 1u < nthreads; c->started++) {
    c->arg[c->started] = (crew_arg_t){c, c->started + 1u};
    rc = pthread_create(&c->th[c->started], NULL, helper, &c->arg[c->started]);
    if (rc != 0) {
      crew_stop(c);
      return rc;
    }
  }
  return 0;
}

void crew_pick_init(crew_pick_t *p) {
  *p = (crew_pick_t){.alone = 0, .trying = 0, .left = CREW_TRY_EPOCHS_TOGETHER,
                     .wait = CREW_WAIT_MIN, .pace = {0.0, 0.0}};
}

void crew_pick_epoch(crew_pick_t *p, uint64_t wall_ns, uint64_t progress) {
  p->wall_ns += wall_ns;
  p->progress += progress;
  /* together, an epoch at CREW_TRY_ABORT times alone's pace ends its run or try now */
  int held_up = !p->alone && p->pace[1] > 0.0 &&
                (double)wall_ns > CREW_TRY_ABORT * p->pace[1] * (double)progress;
  if (--p->left > 0 && !held_up) return;
  /* no progress at all: as slow as its wall time for one unit */
  p->pace[p->alone] = (double)p->wall_ns / (double)(p->progress > 0 ? p->progress : 1u);
  p->wall_ns = p->progress = 0;
  if (!p->trying) { /* the run ended: try the other mode */
    p->alone = !p->alone;
    p->trying = 1;
    p->left = p->alone ? CREW_TRY_EPOCHS_ALONE : CREW_TRY_EPOCHS_TOGETHER;
    return;
  }
  p->trying = 0;
  /* together must beat alone by CREW_TOGETHER_GAIN: at a pace no better it gains nothing and
     risks a hold-up */
  double alone = p->pace[1], together = p->pace[0] / CREW_TOGETHER_GAIN;
  if (p->alone ? alone <= together : together < alone) { /* the try won: run its mode */
    p->wait = CREW_WAIT_MIN;
  } else { /* it lost: back, and try again after CREW_WAIT_GROWTH times the wait */
    p->alone = !p->alone;
    p->wait = p->wait > CREW_WAIT_MAX / CREW_WAIT_GROWTH ? CREW_WAIT_MAX
                                                         : p->wait * CREW_WAIT_GROWTH;
  }
  p->left = p->wait;
}

/* The epoch ends when it has made epoch_len of progress, or, together, when it has already
 * taken CREW_TRY_ABORT times alone's pace for that (a helper held up: its progress may be
 * none at all). Then the leader picks the next mode; going alone, it takes the helpers' units
 * as they let go of them. */
static void epoch_check(crew_t *c) {
  uint64_t now = now_ns(), clk = c->clock(c->ctx);
  uint64_t wall = now - c->epoch_start_ns, made = clk - c->epoch_start;
  int held_up = !c->pick.alone && c->pick.pace[1] > 0.0 &&
                (double)wall > CREW_TRY_ABORT * c->pick.pace[1] * (double)c->epoch_len;
  if (made < c->epoch_len && !held_up) return;
  c->progress += made;
  if (c->pick.alone) c->progress_alone += made;
  crew_pick_epoch(&c->pick, wall, made);
  c->epoch_start_ns = now;
  c->epoch_start = clk;
  if (c->pick.alone != atomic_load_explicit(&c->alone, memory_order_relaxed)) {
    atomic_store(&c->alone, c->pick.alone); /* sequentially consistent: see nothing_to_do */
    if (!c->pick.alone) wake_helpers(c);
  }
}

void crew_run(crew_t *c) {
  const uint64_t ph = phase_of(c) + 1u;
  const int choose = c->nthreads > 1u; /* with no helper, nothing to choose */
  const uint32_t own = share_lo(c, 1u);
  atomic_store_explicit(&c->ndone, 0u, memory_order_relaxed);
  atomic_store(&c->phase, ph); /* sequentially consistent: see nothing_to_do */
  if (choose && !atomic_load_explicit(&c->alone, memory_order_relaxed)) wake_helpers(c);
  if (choose && c->epoch_start_ns == 0) {
    c->epoch_start_ns = now_ns();
    c->epoch_start = c->clock(c->ctx);
  }
  uint32_t polls = 0;
  while (atomic_load_explicit(&c->ndone, memory_order_acquire) < c->nunits) {
    int moved = 0;
    for (uint32_t u = 0; u < c->nunits; u++) {
      if (is_done(c, u, ph)) continue;
      /* its own units no other thread runs; a helper's for a call, if the helper is not
         running them */
      if (u >= own && !take(c, u, ph)) continue;
      int r = call(c, u, ph);
      moved |= r == CREW_MOVED;
      if (u >= own && r != CREW_DONE) let_go(c, u);
    }
    if (choose && ++c->rounds % ROUNDS_PER_CHECK == 0) epoch_check(c);
    if (!moved) {
      cpu_relax();
      if (++polls % POLLS_PER_CLOCK == 0) sched_yield();
    }
  }
}

void crew_stop(crew_t *c) {
  if (c->epoch_start_ns != 0) { /* the last epoch's progress, to the counts */
    uint64_t made = c->clock(c->ctx) - c->epoch_start;
    c->progress += made;
    if (c->pick.alone) c->progress_alone += made;
    c->epoch_start_ns = 0;
  }
  atomic_store(&c->quit, 1);
  pthread_mutex_lock(&c->mu);
  pthread_cond_broadcast(&c->wake_cv);
  pthread_mutex_unlock(&c->mu);
  for (uint32_t i = 0; i < c->started; i++) pthread_join(c->th[i], NULL);
  c->started = 0;
  pthread_cond_destroy(&c->wake_cv);
  pthread_mutex_destroy(&c->mu);
  free(c->th);
  free(c->arg);
  free(c->done);
  free(c->held);
  c->th = NULL;
  c->arg = NULL;
  c->done = NULL;
  c->held = NULL;
}
