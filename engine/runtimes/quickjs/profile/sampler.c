/*
 * A sampling profiler of the engine's JavaScript, for measuring only (never shipped): appended to
 * QuickJS's quickjs.c in the build `build-quickjs.ts --profile` makes, since it reads the
 * interpreter's own frames. When QJS_PROFILE_DIR is set, a timer signal every QJS_PROFILE_US
 * microseconds (default 50) records the stack of functions running; at exit the samples are
 * written to QJS_PROFILE_DIR/<pid>.folded, one line per sample, outermost frame first, each frame
 * `name@line:column` of the bundle (a C function: `C:<address>`). bench/release-profile.ts reads them.
 */
#include <signal.h>
#include <time.h>

#define PROFILE_SAMPLES 60000
#define PROFILE_DEPTH 48

enum { FRAME_JS = 1, FRAME_C = 2, FRAME_OTHER = 3 };

static JSRuntime *profile_rt;
static const void *profile_frames[PROFILE_SAMPLES][PROFILE_DEPTH];
static unsigned char profile_kinds[PROFILE_SAMPLES][PROFILE_DEPTH];
static int profile_depths[PROFILE_SAMPLES];
static volatile sig_atomic_t profile_count;

/* In the signal handler: reads the frame chain only (no allocation, no call into QuickJS). */
static void profile_sample(int signal_number)
{
    (void)signal_number;
    int n = profile_count;
    if (n >= PROFILE_SAMPLES || profile_rt == NULL)
        return;
    int depth = 0;
    for (JSStackFrame *sf = profile_rt->current_stack_frame; sf != NULL && depth < PROFILE_DEPTH; sf = sf->prev_frame) {
        if (JS_VALUE_GET_TAG(sf->cur_func) != JS_TAG_OBJECT)
            continue;
        JSObject *p = JS_VALUE_GET_OBJ(sf->cur_func);
        if (p->class_id == JS_CLASS_BYTECODE_FUNCTION) {
            profile_frames[n][depth] = p->u.func.function_bytecode;
            profile_kinds[n][depth] = FRAME_JS;
        } else if (p->class_id == JS_CLASS_C_FUNCTION) {
            profile_frames[n][depth] = (const void *)p->u.cfunc.c_function.generic;
            profile_kinds[n][depth] = FRAME_C;
        } else {
            profile_frames[n][depth] = NULL;
            profile_kinds[n][depth] = FRAME_OTHER;
        }
        depth++;
    }
    profile_depths[n] = depth;
    profile_count = n + 1;
}

static void profile_write(void)
{
    signal(SIGPROF, SIG_IGN);
    char path[1024];
    snprintf(path, sizeof path, "%s/%d.folded", getenv("QJS_PROFILE_DIR"), (int)getpid());
    FILE *out = fopen(path, "w");
    if (out == NULL)
        return;
    for (int n = 0; n < profile_count; n++) {
        for (int d = profile_depths[n] - 1; d >= 0; d--) {
            const char *separator = d == profile_depths[n] - 1 ? "" : ";";
            if (profile_kinds[n][d] == FRAME_JS) {
                const JSFunctionBytecode *b = profile_frames[n][d];
                char name[ATOM_GET_STR_BUF_SIZE];
                JS_AtomGetStrRT(profile_rt, name, sizeof name, b->func_name);
                fprintf(out, "%s%s@%d:%d", separator, name, b->line_num, b->col_num);
            } else if (profile_kinds[n][d] == FRAME_C) {
                fprintf(out, "%sC:%p", separator, profile_frames[n][d]);
            } else {
                fprintf(out, "%s?", separator);
            }
        }
        fputc('\n', out);
    }
    fclose(out);
}

void js_profile_start(JSRuntime *rt)
{
    if (getenv("QJS_PROFILE_DIR") == NULL)
        return;
    profile_rt = rt;
    struct sigaction action = {0};
    action.sa_handler = profile_sample;
    action.sa_flags = SA_RESTART;
    sigaction(SIGPROF, &action, NULL);
    struct sigevent event = {0};
    event.sigev_notify = SIGEV_SIGNAL;
    event.sigev_signo = SIGPROF;
    timer_t timer;
    if (timer_create(CLOCK_MONOTONIC, &event, &timer) != 0)
        return;
    const char *us = getenv("QJS_PROFILE_US");
    long interval = (us != NULL ? atol(us) : 50) * 1000;
    struct itimerspec every = {{0, interval}, {0, interval}};
    timer_settime(timer, 0, &every, NULL);
    atexit(profile_write);
}
