/*
 * crew.c - phases of claimed units (crew.h).
 *
 * A unit is claimed by a compare-and-swap of its `claim` from an earlier phase to the thread's
 * phase: a helper that comes late to a phase that has ended finds every unit claimed in it and
 * cannot claim a unit of the next one in its name. The leader publishes a phase by storing it
 * (release) and wakes sleeping helpers; a helper that finished a unit adds to `done` (release)
 * and wakes the leader if it sleeps. Both sleeps re-check their condition under the mutex after
 * announcing themselves (sleepers, leader_waits), and the other side reads the announcement
 * after its own store (sequentially consistent), so no wake-up is lost.
 */
#define _POSIX_C_SOURCE 200809L
#include "crew.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

/* How long a waiter spins before it sleeps. The serial part between two phases and the rest of
 * a claimed lane take a few to some tens of microseconds (docs/sim.md "Threads"); a scheduler
 * time slice is milliseconds. */
#define SPIN_NS 50000u
#define NS_PER_S 1000000000ull
/* Polls between two reads of the clock, and between two sched_yield()s: on a busy machine the
 * thread being waited for may be queued behind the waiter on the same core. */
#define POLLS_PER_CLOCK 64u

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

/* Claim and run units of phase ph, thread self's share first, until none is left. */
static void work(crew_t *c, uint64_t ph, uint32_t self) {
  uint32_t first = (uint32_t)((uint64_t)self * c->nunits / c->nthreads);
  for (uint32_t k = 0; k < c->nunits; k++) {
    uint32_t u = first + k < c->nunits ? first + k : first + k - c->nunits;
    uint_fast64_t v = atomic_load_explicit(&c->claim[u], memory_order_acquire);
    if (v >= ph ||
        !atomic_compare_exchange_strong_explicit(&c->claim[u], &v, ph, memory_order_acq_rel,
                                                 memory_order_acquire))
      continue; /* claimed in this phase (or, for a late helper, a later one) */
    c->job(c->ctx, u);
    if (atomic_fetch_add(&c->done, 1u) + 1u == c->nunits && atomic_load(&c->leader_waits)) {
      pthread_mutex_lock(&c->mu);
      pthread_cond_broadcast(&c->done_cv);
      pthread_mutex_unlock(&c->mu);
    }
  }
}

static uint64_t phase_of(crew_t *c) {
  return atomic_load_explicit(&c->phase, memory_order_acquire);
}

/* What a thread waits for: a helper for a phase after `seen`, the leader for every unit done. */
static int no_new_phase(crew_t *c, uint64_t seen) {
  return phase_of(c) == seen && !atomic_load(&c->quit);
}

static int units_pending(crew_t *c, uint64_t unused) {
  (void)unused;
  return atomic_load_explicit(&c->done, memory_order_acquire) != c->nunits;
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

static void *helper(void *arg) {
  crew_t *c = ((crew_arg_t *)arg)->c;
  uint32_t self = ((crew_arg_t *)arg)->self;
  uint64_t seen = 0; /* phase 0: none yet */
  for (;;) {
    if (spin(c, no_new_phase, seen)) {
      pthread_mutex_lock(&c->mu);
      atomic_fetch_add(&c->sleepers, 1u);
      while (phase_of(c) == seen && !atomic_load(&c->quit)) pthread_cond_wait(&c->wake_cv, &c->mu);
      atomic_fetch_sub(&c->sleepers, 1u);
      pthread_mutex_unlock(&c->mu);
    }
    if (atomic_load(&c->quit)) return NULL;
    seen = phase_of(c);
    work(c, seen, self);
  }
}

int crew_start(crew_t *c, uint32_t nthreads, uint32_t nunits, crew_job_fn job, void *ctx) {
  c->nthreads = nthreads;
  c->nunits = nunits;
  c->job = job;
  c->ctx = ctx;
  c->started = 0;
  atomic_init(&c->phase, 0u);
  atomic_init(&c->done, 0u);
  atomic_init(&c->sleepers, 0u);
  atomic_init(&c->leader_waits, 0);
  atomic_init(&c->quit, 0);
  crew_pick_init(&c->pick);
  c->epoch_len = CREW_EPOCH_PHASES;
  c->epoch_phases = 0;
  c->phases = c->phases_alone = 0;
  c->th = calloc(nthreads, sizeof *c->th);
  c->arg = calloc(nthreads, sizeof *c->arg);
  c->claim = calloc(nunits, sizeof *c->claim);
  if (c->th == NULL || c->arg == NULL || c->claim == NULL) {
    free(c->th);
    free(c->arg);
    free(c->claim);
    return ENOMEM;
  }
  for (uint32_t u = 0; u < nunits; u++) atomic_init(&c->claim[u], 0u);
  int rc = pthread_mutex_init(&c->mu, NULL);
  if (rc == 0 && (rc = pthread_cond_init(&c->wake_cv, NULL)) != 0) pthread_mutex_destroy(&c->mu);
  if (rc == 0 && (rc = pthread_cond_init(&c->done_cv, NULL)) != 0) {
    pthread_cond_destroy(&c->wake_cv);
    pthread_mutex_destroy(&c->mu);
  }
  if (rc != 0) {
    free(c->th);
    free(c->arg);
    free(c->claim);
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

void crew_pick_epoch(crew_pick_t *p, uint64_t wall_ns, uint64_t phases) {
  p->wall_ns += wall_ns;
  p->phases += phases;
  /* together, an epoch at CREW_TRY_ABORT times alone's pace ends its run or try now */
  int held_up = !p->alone && p->pace[1] > 0.0 &&
                (double)wall_ns > CREW_TRY_ABORT * p->pace[1] * (double)phases;
  if (--p->left > 0 && !held_up) return;
  p->pace[p->alone] = p->phases > 0 ? (double)p->wall_ns / (double)p->phases : 0.0;
  p->wall_ns = p->phases = 0;
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

/* One phase together: published to the helpers, the leader claiming units with them. */
static void run_together(crew_t *c) {
  atomic_store_explicit(&c->done, 0u, memory_order_relaxed);
  uint64_t ph = phase_of(c) + 1u;
  atomic_store(&c->phase, ph); /* sequentially consistent */
  if (atomic_load(&c->sleepers) > 0) {
    pthread_mutex_lock(&c->mu);
    pthread_cond_broadcast(&c->wake_cv);
    pthread_mutex_unlock(&c->mu);
  }
  work(c, ph, 0);
  if (spin(c, units_pending, 0)) {
    pthread_mutex_lock(&c->mu);
    atomic_store(&c->leader_waits, 1);
    while (atomic_load(&c->done) != c->nunits) pthread_cond_wait(&c->done_cv, &c->mu);
    atomic_store(&c->leader_waits, 0);
    pthread_mutex_unlock(&c->mu);
  }
}

void crew_run(crew_t *c) {
  const int choose = c->nthreads > 1u; /* with no helper, nothing to choose */
  if (choose && c->epoch_phases == 0) c->epoch_start_ns = now_ns();
  if (!choose || c->pick.alone) { /* the helpers stay where they wait: no phase is published */
    for (uint32_t u = 0; u < c->nunits; u++) c->job(c->ctx, u);
    c->phases_alone++;
  } else {
    run_together(c);
  }
  c->phases++;
  if (choose && ++c->epoch_phases >= c->epoch_len) {
    crew_pick_epoch(&c->pick, now_ns() - c->epoch_start_ns, c->epoch_phases);
    c->epoch_phases = 0;
  }
}

void crew_stop(crew_t *c) {
  atomic_store(&c->quit, 1);
  pthread_mutex_lock(&c->mu);
  pthread_cond_broadcast(&c->wake_cv);
  pthread_mutex_unlock(&c->mu);
  for (uint32_t i = 0; i < c->started; i++) pthread_join(c->th[i], NULL);
  c->started = 0;
  pthread_cond_destroy(&c->done_cv);
  pthread_cond_destroy(&c->wake_cv);
  pthread_mutex_destroy(&c->mu);
  free(c->th);
  free(c->arg);
  free(c->claim);
  c->th = NULL;
  c->arg = NULL;
  c->claim = NULL;
}
