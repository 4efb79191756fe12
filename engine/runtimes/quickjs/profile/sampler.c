/*
 * A sampling profiler of the engine's JavaScript, for measuring only (never shipped): appended to
 * QuickJS's quickjs.c in the build `build-quickjs.ts --profile` makes, since it reads the
 * interpreter's own frames. When QJS_PROFILE_DIR is set, a timer signal every QJS_PROFILE_US
 * microseconds (default 50) records the stack of functions running; at exit the samples are
 * written to QJS_PROFILE_DIR/<pid>.folded, one line per sample, outermost frame first, each frame
 * `f@line:column>line:column`: where the function starts in the bundle, then where it was when
 * sampled (the call it was making, for any but the innermost frame; a C function: `C:<address>`).
 * bench/release-profile.ts reads them.
 */
#include <setjmp.h>
#include <signal.h>
#include <time.h>

#define PROFILE_SAMPLES 60000
#define PROFILE_DEPTH 48

enum { FRAME_JS = 1, FRAME_C = 2, FRAME_OTHER = 3 };

static JSRuntime *profile_rt;
static const void *profile_frames[PROFILE_SAMPLES][PROFILE_DEPTH];
static uint64_t profile_sites[PROFILE_SAMPLES][PROFILE_DEPTH];
static unsigned char profile_kinds[PROFILE_SAMPLES][PROFILE_DEPTH];
static int profile_depths[PROFILE_SAMPLES];
static volatile sig_atomic_t profile_count;

/* The interpreter links a frame before it has filled it in (and the compiler may order the stores
   as it likes), so a sample can meet a frame half made: a fault while sampling drops that sample. */
static sigjmp_buf profile_fault_exit;
static volatile sig_atomic_t profile_sampling;

static void profile_fault(int signal_number)
{
    if (profile_sampling)
        siglongjmp(profile_fault_exit, 1);
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

/* In the signal handler: reads the frame chain only (no allocation, no call into QuickJS). */
static void profile_sample(int signal_number)
{
    (void)signal_number;
    int n = profile_count;
    if (n >= PROFILE_SAMPLES || profile_rt == NULL)
        return;
    if (sigsetjmp(profile_fault_exit, 1) != 0) {
        profile_sampling = 0;
        return;
    }
    profile_sampling = 1;
    int depth = 0;
    for (JSStackFrame *sf = profile_rt->current_stack_frame; sf != NULL && depth < PROFILE_DEPTH; sf = sf->prev_frame) {
        if (JS_VALUE_GET_TAG(sf->cur_func) != JS_TAG_OBJECT)
            continue;
        JSObject *p = JS_VALUE_GET_OBJ(sf->cur_func);
        if (p->class_id == JS_CLASS_BYTECODE_FUNCTION) {
            /* The place, not the bytecode: a function the collector frees before exit leaves no
               bytecode to read then. */
            JSFunctionBytecode *b = p->u.func.function_bytecode;
            profile_frames[n][depth] = (const void *)(((uintptr_t)(uint32_t)b->line_num << 32) | (uint32_t)b->col_num);
            profile_kinds[n][depth] = FRAME_JS;
            /* The interpreter saves its position before each call (and where it may throw). */
            int col = 0, line = 0;
            if (sf->cur_pc != NULL && b->byte_code_buf != NULL)
                line = find_line_num(NULL, b, (uint32_t)(sf->cur_pc - b->byte_code_buf - 1), &col);
            profile_sites[n][depth] = ((uint64_t)(uint32_t)line << 32) | (uint32_t)col;
        } else if (p->class_id == JS_CLASS_C_FUNCTION) {
            profile_frames[n][depth] = (const void *)p->u.cfunc.c_function.generic;
            profile_kinds[n][depth] = FRAME_C;
        } else {
            profile_frames[n][depth] = NULL;
            profile_kinds[n][depth] = FRAME_OTHER;
        }
        depth++;
    }
    profile_sampling = 0;
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
                uintptr_t place = (uintptr_t)profile_frames[n][d];
                uint64_t site = profile_sites[n][d];
                fprintf(out, "%sf@%u:%u>%u:%u", separator, (unsigned)(place >> 32), (unsigned)(place & 0xffffffffu),
                        (unsigned)(site >> 32), (unsigned)(site & 0xffffffffu));
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
    struct sigaction fault = {0};
    fault.sa_handler = profile_fault;
    fault.sa_flags = SA_NODEFER;
    sigaction(SIGSEGV, &fault, NULL);
    sigaction(SIGBUS, &fault, NULL);
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
