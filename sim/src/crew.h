/*
 * crew.h - the threads of a run share out the lanes of each window (docs/sim.md "Threads").
 *
 * The calling thread leads: crew_run starts a phase in which every thread, the caller too,
 * claims units (lanes) one at a time until none is left, and returns when all are done. Each
 * thread first claims its own share (units k * nunits / nthreads .. for thread k, so that a
 * lane's devices stay in one core's cache from phase to phase), then the others' leftovers. The
 * caller never waits for a helper that has not claimed a unit: on a shared machine a helper that
 * is descheduled or asleep simply leaves its share to the others. Waiting threads spin for a
 * short while (the next phase or the last unit is usually a few microseconds away), then sleep
 * on a condition variable, so that a waiter does not keep a descheduled peer from the core.
 *
 * Together or alone. A helper descheduled while it holds a unit (its core shared with another
 * program) holds up the phase until it runs again, milliseconds later; over the ~100 000 phases
 * of a run that made two threads several times slower than one on a machine with a core busy.
 * So the leader may also run a phase alone (every unit itself, the helpers asleep), and picks
 * by measuring both (crew_pick_t): it times each mode's wall time a phase over epochs of
 * CREW_EPOCH_PHASES and keeps the faster, together only if faster by CREW_TOGETHER_GAIN (with
 * a core busy it often runs at alone's pace, the helper getting nothing, between hold-ups). Now
 * and then it tries the other mode: alone for CREW_TRY_EPOCHS_ALONE epochs, together for
 * CREW_TRY_EPOCHS_TOGETHER (its hold-ups come every few milliseconds, not in every epoch), a
 * try or run together ending at once with an epoch at CREW_TRY_ABORT times alone's pace. After
 * a try that lost it waits CREW_WAIT_GROWTH times as long before the next (from CREW_WAIT_MIN
 * up to CREW_WAIT_MAX epochs), so that tries cost little while the machine's load stays as it
 * is.
 * Which thread runs a unit changes nothing a unit computes.
 * C11 atomics + POSIX threads.
 */
#ifndef LFC_SIM_CREW_H
#define LFC_SIM_CREW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* One unit of a phase; ctx is crew_start's. Runs on any thread, each unit on one. */
typedef void (*crew_job_fn)(void *ctx, uint32_t unit);

typedef struct crew crew_t;

/* Phases an epoch; a try's epochs, alone and together; the epochs before the next try, at
 * first and at most (an epoch is some 10 ms in the bench's fat tree on two free cores), and
 * their growth after a try that lost. */
#define CREW_EPOCH_PHASES 256u
#define CREW_TRY_EPOCHS_ALONE 1u
#define CREW_TRY_EPOCHS_TOGETHER 4u
#define CREW_WAIT_MIN 4u
#define CREW_WAIT_MAX 256u
#define CREW_WAIT_GROWTH 4u
/* Together is kept only at a pace at most this fraction of alone's; a run or try of it ends
 * at once with an epoch at this many times alone's pace (crew_pick_epoch). */
#define CREW_TOGETHER_GAIN 0.9
#define CREW_TRY_ABORT 2.0

/* The leader's choice between together and alone (crew.h), fed an epoch at a time. */
typedef struct {
  int alone;          /* the mode of the epochs now: 1 alone, 0 together */
  int trying;         /* they are a try of it, against the other's pace */
  uint32_t left;      /* epochs before the mode's run or try ends */
  uint32_t wait;      /* the run's epochs before the next try */
  uint64_t wall_ns, phases;  /* of the run or try so far */
  double pace[2];     /* ns a phase, by alone: of the last run or try of each mode */
} crew_pick_t;

/* The choice at the start: together, for a try's length, then alone tried. */
void crew_pick_init(crew_pick_t *p);
/* An epoch of `phases` phases in p->alone's mode took wall_ns: p->alone is the next one's. */
void crew_pick_epoch(crew_pick_t *p, uint64_t wall_ns, uint64_t phases);

/* What a helper thread is started with. */
typedef struct {
  crew_t *c;
  uint32_t self; /* 1..nthreads-1 (the leader is 0) */
} crew_arg_t;

struct crew {
  uint32_t nthreads, nunits; /* threads including the leader; units per phase */
  crew_job_fn job;
  void *ctx;
  _Alignas(64) atomic_uint_fast64_t phase; /* the current phase, from 1 */
  atomic_uint_fast64_t *claim;              /* per unit: the last phase that claimed it */
  _Alignas(64) atomic_uint done;            /* units of the phase finished */
  atomic_uint sleepers;                     /* helpers asleep on wake_cv */
  atomic_int leader_waits;                  /* the leader is asleep on done_cv */
  atomic_int quit;
  pthread_mutex_t mu;
  pthread_cond_t wake_cv, done_cv;
  pthread_t *th;
  crew_arg_t *arg;
  uint32_t started; /* helpers running */
  crew_pick_t pick;        /* together or alone (the leader's) */
  uint32_t epoch_len;      /* phases an epoch: CREW_EPOCH_PHASES (a test may set fewer) */
  uint32_t epoch_phases;   /* phases of the epoch so far */
  uint64_t epoch_start_ns; /* its start */
  uint64_t phases, phases_alone; /* since crew_start */
};

/* Start nthreads - 1 helpers (nthreads >= 1) for phases of nunits units of job. 0, or an
 * errno value (then no helper is left running and crew_stop need not be called). */
int crew_start(crew_t *c, uint32_t nthreads, uint32_t nunits, crew_job_fn job, void *ctx);
/* One phase: job(ctx, u) for u = 0..nunits-1, on all threads. Everything written before the
 * call is seen by every job, everything a job wrote is seen after the return. */
void crew_run(crew_t *c);
/* End the helpers. */
void crew_stop(crew_t *c);

#endif /* LFC_SIM_CREW_H */
