/*
 * test_crew.c - how sim/src/crew.c runs a phase's units to their end, and its choice between
 * running them together and the leader running them alone (crew.h).
 *
 * The choice (crew_pick_t) is fed epochs of made-up wall times, as the leader's clock would:
 * with two free cores (together at 0.6 of alone's pace) it stays together but for its tries
 * of alone, fewer and fewer; with a core busy (together at alone's pace between hold-ups of a
 * helper descheduled for milliseconds) it runs alone; together a little faster than alone, but
 * not by CREW_TOGETHER_GAIN, is not worth its risk; a try that is held up ends at once; when
 * the other core frees up it goes back to together within the longest wait. Then real crews
 * of two and three threads: units that may not run ahead of each other by more than a step
 * (as lanes wait for each other) all reach every phase's end; and with a helper that sleeps
 * 2 ms in every call it makes (a descheduled helper), every unit still reaches each phase's
 * end, and most of the progress is made alone.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "crew.h"

/* Made-up paces, ns a unit of progress: alone, together on two free cores, and a hold-up. */
#define ALONE_NS 50000u
#define FREE_NS 30000u
#define HELD_NS 1000000u
#define EPOCHS 4000u

/* The pace of an epoch in mode `alone` after `n` epochs fed so far (a load's model). */
typedef uint64_t (*load_fn)(int alone, uint32_t n);

static uint64_t two_free(int alone, uint32_t n) {
  (void)n;
  return alone ? ALONE_NS : FREE_NS;
}

/* A core busy: together runs at alone's pace (the leader does it all) but one epoch in three
 * has a hold-up. */
static uint64_t one_busy(int alone, uint32_t n) {
  return alone ? ALONE_NS : n % 3u == 0 ? HELD_NS : ALONE_NS;
}

/* Together 5 % faster: less than CREW_TOGETHER_GAIN asks. */
static uint64_t marginal(int alone, uint32_t n) {
  (void)n;
  return alone ? ALONE_NS : ALONE_NS * 95u / 100u;
}

/* Every together epoch held up. */
static uint64_t always_held(int alone, uint32_t n) {
  (void)n;
  return alone ? ALONE_NS : HELD_NS;
}

/* Feed `epochs` epochs from p's state under `load`, from epoch `n0` on; the epochs alone. */
static uint32_t feed(crew_pick_t *p, load_fn load, uint32_t n0, uint32_t epochs) {
  uint32_t alone = 0;
  for (uint32_t n = n0; n < n0 + epochs; n++) {
    alone += (uint32_t)p->alone;
    crew_pick_epoch(p, load(p->alone, n) * CREW_EPOCH_PROGRESS, CREW_EPOCH_PROGRESS);
  }
  return alone;
}

static void free_cores_stay_together(void **state) {
  (void)state;
  crew_pick_t p;
  crew_pick_init(&p);
  uint32_t alone = feed(&p, two_free, 0, EPOCHS);
  /* it does try alone (the first after CREW_TRY_EPOCHS_TOGETHER), but the waits grow to
     CREW_WAIT_MAX: at most EPOCHS / CREW_WAIT_MAX tries after the growing ones */
  assert_true(alone >= 1u);
  assert_true(alone <= 8u + EPOCHS / CREW_WAIT_MAX);
  assert_int_equal(p.alone, 0);
}

/* Of EPOCHS epochs from the start under `load`, those alone. */
static uint32_t alone_from_start(load_fn load) {
  crew_pick_t p;
  crew_pick_init(&p);
  return feed(&p, load, 0, EPOCHS);
}

static void busy_core_runs_alone(void **state) {
  (void)state;
  assert_true(alone_from_start(one_busy) >= EPOCHS * 95u / 100u);
}

static void no_gain_no_risk(void **state) {
  (void)state;
  assert_true(alone_from_start(marginal) >= EPOCHS * 95u / 100u);
}

/* A try of together held up in its first epoch ends there: after the first try of alone,
 * each try of together is one epoch long. */
static void held_up_try_ends_at_once(void **state) {
  (void)state;
  crew_pick_t p;
  crew_pick_init(&p);
  (void)feed(&p, always_held, 0, CREW_TRY_EPOCHS_TOGETHER + CREW_TRY_EPOCHS_ALONE);
  assert_int_equal(p.alone, 1); /* the first run together was slower than the try alone */
  uint32_t tries = 0, together = 0;
  for (uint32_t n = 0; n < EPOCHS; n++) {
    int was_alone = p.alone;
    crew_pick_epoch(&p, always_held(p.alone, n) * CREW_EPOCH_PROGRESS, CREW_EPOCH_PROGRESS);
    together += (uint32_t)!was_alone;
    tries += (uint32_t)(was_alone && !p.alone); /* a try of together starts */
  }
  assert_true(tries >= 2u);
  assert_int_equal(together, tries);
}

/* Busy, then free: together again within the longest wait and a try, and staying there. */
static void frees_up_goes_back(void **state) {
  (void)state;
  crew_pick_t p;
  crew_pick_init(&p);
  assert_true(feed(&p, one_busy, 0, EPOCHS) >= EPOCHS * 95u / 100u);
  const uint32_t back = CREW_WAIT_MAX + CREW_TRY_EPOCHS_TOGETHER + 1u;
  (void)feed(&p, two_free, EPOCHS, back);
  assert_int_equal(p.alone, 0);
  uint32_t alone = feed(&p, two_free, EPOCHS + back, EPOCHS);
  assert_true(alone <= 8u + EPOCHS / CREW_WAIT_MAX);
}

/* A try held up without any progress at all is slower than alone, not free. */
static void no_progress_is_slow(void **state) {
  (void)state;
  crew_pick_t p;
  crew_pick_init(&p);
  (void)feed(&p, two_free, 0, CREW_TRY_EPOCHS_TOGETHER + CREW_TRY_EPOCHS_ALONE);
  assert_int_equal(p.alone, 0); /* together won its first try */
  for (uint32_t n = 0; n < CREW_WAIT_MIN - 1u; n++) crew_pick_epoch(&p, FREE_NS, 1u);
  crew_pick_epoch(&p, HELD_NS, 0u); /* the run's last epoch: no progress */
  assert_int_equal(p.alone, 1);     /* alone is tried */
  crew_pick_epoch(&p, ALONE_NS * CREW_EPOCH_PROGRESS, CREW_EPOCH_PROGRESS);
  assert_int_equal(p.alone, 1); /* and kept: the run together ended at HELD_NS a unit */
}

/* ---- Real crews ---- */

#define UNITS 4u
#define PHASES 300u
#define STEPS 10u          /* calls a unit makes progress in, a phase */
#define EPOCH_LEN 8u       /* progress an epoch here, so that the test takes a second */
#define HELPER_SLEEP_NS 2000000L
#define LEADER_SPIN_NS 20000u

typedef struct {
  pthread_t leader;
  int lockstep;                  /* a unit may not be more than a step ahead of another */
  int sleepy;                    /* the helpers sleep in every call (descheduled) */
  int idle_leader;               /* the leader's own units have no steps: it looks at the
                                    helpers' units all the time */
  _Atomic uint32_t steps[UNITS]; /* in this phase */
  _Atomic uint32_t total[UNITS];
  _Atomic uint32_t by_helper;
  _Atomic uint32_t running[UNITS]; /* calls of the unit in progress: never two */
  _Atomic uint32_t dones[UNITS];   /* in this phase: the calls that found it done */
} ctx_t;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int job(void *arg, uint32_t unit) {
  ctx_t *x = arg;
  assert_int_equal(atomic_fetch_add(&x->running[unit], 1u), 0u);
  int r = CREW_MOVED;
  uint32_t k = atomic_load(&x->steps[unit]);
  for (uint32_t u = 0; x->lockstep && u < UNITS; u++)
    if (k > atomic_load(&x->steps[u]) && u != unit) r = CREW_WAIT;
  if (k == (x->idle_leader && unit < UNITS / 2u ? 0u : STEPS)) {
    r = CREW_DONE;
    assert_int_equal(atomic_fetch_add(&x->dones[unit], 1u), 0u); /* never called once done */
  } else if (r == CREW_MOVED) {
    atomic_store(&x->steps[unit], k + 1u);
    atomic_fetch_add(&x->total[unit], 1u);
    if (!pthread_equal(pthread_self(), x->leader)) atomic_fetch_add(&x->by_helper, 1u);
  }
  if (pthread_equal(pthread_self(), x->leader)) {
    uint64_t t0 = now_ns();
    while (now_ns() - t0 < LEADER_SPIN_NS) {
    }
  } else if (x->sleepy) {
    struct timespec ts = {0, HELPER_SLEEP_NS};
    nanosleep(&ts, NULL);
  }
  atomic_fetch_sub(&x->running[unit], 1u);
  return r;
}

/* Progress: the steps of every unit so far. */
static uint64_t clock_of(void *arg) {
  ctx_t *x = arg;
  uint64_t n = 0;
  for (uint32_t u = 0; u < UNITS; u++) n += atomic_load(&x->total[u]);
  return n;
}

static ctx_t *crew_ctx(int lockstep, int sleepy, int idle_leader) {
  static ctx_t x;
  x.leader = pthread_self();
  x.lockstep = lockstep;
  x.sleepy = sleepy;
  x.idle_leader = idle_leader;
  for (uint32_t u = 0; u < UNITS; u++) {
    atomic_init(&x.total[u], 0u);
    atomic_init(&x.running[u], 0u);
  }
  atomic_init(&x.by_helper, 0u);
  return &x;
}

/* PHASES phases of crew c on x: every unit makes its STEPS in each. */
static void run_phases(crew_t *c, ctx_t *x) {
  for (uint32_t i = 0; i < PHASES; i++) {
    for (uint32_t u = 0; u < UNITS; u++) {
      atomic_store(&x->steps[u], 0u);
      atomic_store(&x->dones[u], 0u);
    }
    crew_run(c);
    for (uint32_t u = 0; u < UNITS; u++)
      assert_int_equal(atomic_load(&x->steps[u]), x->idle_leader && u < UNITS / 2u ? 0u : STEPS);
  }
}

static void units_that_wait_finish(void **state) {
  (void)state;
  for (uint32_t threads = 2u; threads <= 3u; threads++) {
    ctx_t *x = crew_ctx(1, 0, 0);
    crew_t c;
    assert_int_equal(crew_start(&c, threads, UNITS, job, clock_of, x), 0);
    c.epoch_len = EPOCH_LEN;
    run_phases(&c, x);
    crew_stop(&c);
    for (uint32_t u = 0; u < UNITS; u++)
      assert_int_equal(atomic_load(&x->total[u]), PHASES * STEPS);
  }
}

/* The leader, with nothing of its own to do, takes up a helper's unit whenever the helper lets
 * go of it, which it does when the unit is done: it must not call it again. */
static void idle_leader_calls_no_unit_twice(void **state) {
  (void)state;
  ctx_t *x = crew_ctx(0, 0, 1);
  crew_t c;
  assert_int_equal(crew_start(&c, 2u, UNITS, job, clock_of, x), 0);
  for (uint32_t round = 0; round < 100u; round++) run_phases(&c, x);
  crew_stop(&c);
}

static void descheduled_helper(void **state) {
  (void)state;
  ctx_t *x = crew_ctx(0, 1, 0);
  crew_t c;
  assert_int_equal(crew_start(&c, 2u, UNITS, job, clock_of, x), 0);
  c.epoch_len = EPOCH_LEN;
  run_phases(&c, x);
  crew_stop(&c);
  for (uint32_t u = 0; u < UNITS; u++) assert_int_equal(atomic_load(&x->total[u]), PHASES * STEPS);
  assert_true(c.progress_alone >= c.progress * 80u / 100u); /* alone, but for the tries together */
  assert_true(atomic_load(&x->by_helper) > 0u); /* ... in which the helper moved units */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(free_cores_stay_together), cmocka_unit_test(busy_core_runs_alone),
      cmocka_unit_test(no_gain_no_risk),          cmocka_unit_test(held_up_try_ends_at_once),
      cmocka_unit_test(frees_up_goes_back),       cmocka_unit_test(no_progress_is_slow),
      cmocka_unit_test(units_that_wait_finish),   cmocka_unit_test(idle_leader_calls_no_unit_twice),
      cmocka_unit_test(descheduled_helper),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
