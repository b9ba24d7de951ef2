/*
 * crew.h - the threads of a run share out its lanes (docs/sim.md "Threads").
 *
 * A phase runs every unit (lane) to its end: the job of a unit is called again and again, each
 * call moving the unit on as far as the others let it (CREW_MOVED), finding it cannot move yet
 * (CREW_WAIT: it waits for another unit), or finding it at the phase's end (CREW_DONE). The
 * calling thread leads: crew_run returns when every unit is done. Each thread has a share of
 * the units (units k * nunits / nthreads .. for thread k, so that a lane's devices stay in one
 * core's cache) and holds them while it runs them; the leader also runs, a call at a time,
 * units of a helper that is not running them (asleep, or not yet woken): it never waits for a
 * helper that holds nothing. A helper with nothing to run spins for a short while, then sleeps
 * on a condition variable, so that it does not keep a descheduled peer from the core.
 *
 * Together or alone. A helper descheduled while it holds a unit (its core shared with another
 * program) holds up the others until it runs again, milliseconds later; that made two threads
 * several times slower than one on a machine with a core busy. So the leader may also run
 * every unit itself (alone: the helpers let go of their units and sleep), and picks by
 * measuring both (crew_pick_t): it times each mode's wall time per unit of progress (the
 * caller's clock: lfc-sim's is the cycle every lane has stepped to) over epochs of epoch_len
 * and keeps the faster, together only if faster by CREW_TOGETHER_GAIN (with a core busy it
 * often runs at alone's pace, the helper getting nothing, between hold-ups). Now and then it
 * tries the other mode: alone for CREW_TRY_EPOCHS_ALONE epochs, together for
 * CREW_TRY_EPOCHS_TOGETHER (its hold-ups come every few milliseconds, not in every epoch), a try
 * or run together ending at once when its epoch has taken CREW_TRY_ABORT times alone's pace.
 * After a try that lost it waits CREW_WAIT_GROWTH times as long before the next (from
 * CREW_WAIT_MIN up to CREW_WAIT_MAX epochs), so that tries cost little while the machine's load
 * stays as it is.
 * Which thread runs a unit changes nothing a unit computes.
 * C11 atomics + POSIX threads.
 */
#ifndef LFC_SIM_CREW_H
#define LFC_SIM_CREW_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

/* What a unit's job reports. */
enum { CREW_WAIT, CREW_MOVED, CREW_DONE };
/* One call of a unit's job; ctx is crew_start's. Runs on any thread, a unit on one at a time. */
typedef int (*crew_job_fn)(void *ctx, uint32_t unit);
/* The progress so far, a count that never falls (the pace's measure). */
typedef uint64_t (*crew_clock_fn)(void *ctx);

typedef struct crew crew_t;

/* Progress an epoch (lfc-sim: cycles; some 10 ms in the bench's fat tree on two free cores);
 * a try's epochs, alone and together; the epochs before the next try, at first and at most,
 * and their growth after a try that lost. */
#define CREW_EPOCH_PROGRESS 512u
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
  uint64_t wall_ns, progress; /* of the run or try so far */
  double pace[2];     /* ns a unit of progress, by alone: of the last run or try of each mode */
} crew_pick_t;

/* The choice at the start: together, for a try's length, then alone tried. */
void crew_pick_init(crew_pick_t *p);
/* An epoch that made `progress` in p->alone's mode took wall_ns: p->alone is the next one's. */
void crew_pick_epoch(crew_pick_t *p, uint64_t wall_ns, uint64_t progress);

/* What a helper thread is started with. */
typedef struct {
  crew_t *c;
  uint32_t self; /* 1..nthreads-1 (the leader is 0) */
} crew_arg_t;

struct crew {
  uint32_t nthreads, nunits; /* threads including the leader; units per phase */
  crew_job_fn job;
  crew_clock_fn clock;
  void *ctx;
  _Alignas(64) atomic_uint_fast64_t phase; /* the current phase, from 1 */
  atomic_int alone;                         /* helpers keep out: the leader runs every unit */
  atomic_uint sleepers;                     /* helpers asleep on wake_cv */
  atomic_int quit;
  _Alignas(64) atomic_uint ndone;           /* units done in the phase */
  atomic_uint_fast64_t *done;               /* per unit: the last phase it was done in */
  atomic_int *held;                         /* per unit: a thread is running it */
  pthread_mutex_t mu;
  pthread_cond_t wake_cv;
  pthread_t *th;
  crew_arg_t *arg;
  uint32_t started; /* helpers running */
  crew_pick_t pick;           /* together or alone (the leader's) */
  uint64_t epoch_len;         /* progress an epoch: CREW_EPOCH_PROGRESS (a test may set less) */
  uint64_t epoch_start_ns, epoch_start; /* the epoch's start: wall time, progress */
  uint64_t progress, progress_alone; /* in the epochs since crew_start, and in those alone */
  uint32_t rounds;                   /* the leader's over the units, since crew_start */
};

/* Start nthreads - 1 helpers (nthreads >= 1) for phases of nunits units of job, measured by
 * clock. 0, or an errno value (then no helper is left running and crew_stop need not be
 * called). */
int crew_start(crew_t *c, uint32_t nthreads, uint32_t nunits, crew_job_fn job, crew_clock_fn clock,
               void *ctx);
/* One phase: every unit's job called until it is done, on all threads. Everything written
 * before the call is seen by every job, everything a job wrote is seen after the return. */
void crew_run(crew_t *c);
/* End the helpers. */
void crew_stop(crew_t *c);

#endif /* LFC_SIM_CREW_H */
