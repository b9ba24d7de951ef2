/*
 * test_crew.c - how sim/src/crew.c shares out a phase's units, and its choice between running
 * them together and the leader running them alone (crew.h).
 *
 * The choice (crew_pick_t) is fed epochs of made-up wall times, as the leader's clock would:
 * with two free cores (together at 0.6 of alone's pace) it stays together but for its tries
 * of alone, fewer and fewer; with a core busy (together at alone's pace between hold-ups of a
 * helper descheduled for milliseconds) it runs alone; together a little faster than alone, but
 * not by CREW_TOGETHER_GAIN, is not worth its risk; a try that is held up ends at once; when
 * the other core frees up it goes back to together within the longest wait. Then a real crew
 * of two threads whose helper sleeps 2 ms in every unit it runs (a descheduled helper): every
 * unit still runs once a phase, and most phases run alone.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <time.h>
#include <cmocka.h>

#include "crew.h"

/* Made-up paces, ns a phase: alone, together on two free cores, and a hold-up. */
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
    crew_pick_epoch(p, load(p->alone, n) * CREW_EPOCH_PHASES, CREW_EPOCH_PHASES);
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
    crew_pick_epoch(&p, always_held(p.alone, n) * CREW_EPOCH_PHASES, CREW_EPOCH_PHASES);
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

/* ---- A crew of two threads, its helper descheduled in every unit it runs ---- */

#define UNITS 4u
#define PHASES 3000u
#define EPOCH_LEN 8u       /* phases an epoch here, so that the test takes a second */
#define HELPER_SLEEP_NS 2000000L
#define LEADER_SPIN_NS 20000u

typedef struct {
  pthread_t leader;
  _Atomic uint32_t runs[UNITS];
  _Atomic uint32_t by_helper;
} ctx_t;

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void job(void *arg, uint32_t unit) {
  ctx_t *x = arg;
  atomic_fetch_add(&x->runs[unit], 1u);
  if (pthread_equal(pthread_self(), x->leader)) {
    uint64_t t0 = now_ns();
    while (now_ns() - t0 < LEADER_SPIN_NS) {
    }
  } else {
    atomic_fetch_add(&x->by_helper, 1u);
    struct timespec ts = {0, HELPER_SLEEP_NS};
    nanosleep(&ts, NULL);
  }
}

static void descheduled_helper(void **state) {
  (void)state;
  static ctx_t x;
  x.leader = pthread_self();
  for (uint32_t u = 0; u < UNITS; u++) atomic_init(&x.runs[u], 0u);
  atomic_init(&x.by_helper, 0u);
  crew_t c;
  assert_int_equal(crew_start(&c, 2u, UNITS, job, &x), 0);
  c.epoch_len = EPOCH_LEN;
  for (uint32_t i = 0; i < PHASES; i++) crew_run(&c);
  crew_stop(&c);
  for (uint32_t u = 0; u < UNITS; u++) assert_int_equal(atomic_load(&x.runs[u]), PHASES);
  assert_int_equal(c.phases, PHASES);
  assert_true(c.phases_alone >= PHASES * 80u / 100u); /* alone, but for the tries together */
  assert_true(atomic_load(&x.by_helper) > 0u);        /* ... in which the helper took units */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(free_cores_stay_together), cmocka_unit_test(busy_core_runs_alone),
      cmocka_unit_test(no_gain_no_risk),          cmocka_unit_test(held_up_try_ends_at_once),
      cmocka_unit_test(frees_up_goes_back),       cmocka_unit_test(descheduled_helper),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
