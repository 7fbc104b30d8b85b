/* include/harmonia/export.h — what libharmonia exports.
 *
 * The library is compiled with -fvisibility=hidden: a function is part of
 * the shared library's interface only when an installed header declares it
 * with HM_EXPORT. Every other function, shared between the library's own
 * files, stays private to the library. */
#ifndef HARMONIA_EXPORT_H
#define HARMONIA_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define HM_EXPORT __attribute__((visibility("default")))
#else
#define HM_EXPORT
#endif

#endif
