/*
 * What each native file's installer does (`mailrender_*_init`, which the build adds to qjsc's
 * generated main()): a C function made a global of the engine's context, under its name.
 */
#ifndef MAILRENDER_GLOBAL_FUNCTION_H
#define MAILRENDER_GLOBAL_FUNCTION_H

#include "quickjs.h"

static inline void define_global_function(JSContext *ctx, const char *name, JSCFunction *function, int length)
{
    JSValue global = JS_GetGlobalObject(ctx);
    JS_SetPropertyStr(ctx, global, name, JS_NewCFunction(ctx, function, name, length));
    JS_FreeValue(ctx, global);
}

#endif
