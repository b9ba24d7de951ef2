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
