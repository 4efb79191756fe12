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

/* The first argument's UTF-8 (free with JS_FreeCString), or NULL with a TypeError naming `function` when it is not a string. */
static inline const char *utf8_argument(JSContext *ctx, int argc, JSValueConst *argv, const char *function, size_t *length)
{
    if (argc < 1 || !JS_IsString(argv[0])) {
        JS_ThrowTypeError(ctx, "%s takes a string", function);
        return NULL;
    }
    return JS_ToCStringLen(ctx, length, argv[0]);
}

#endif
