/* src/common/names.h — helpers shared by the registries of every layer. */
#ifndef HM_COMMON_NAMES_H
#define HM_COMMON_NAMES_H
#include <stddef.h>

/* Write "a, b, c" for the n names given by name_at(0..n-1) into buf
 * (always terminated; when len is too short, whole names only, then
 * ", ..." where it fits). */
void hm__join_names(const char *(*name_at)(size_t), size_t n, char *buf, size_t len);
#endif
