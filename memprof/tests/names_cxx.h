// SPDX-License-Identifier: GPL-2.0-or-later
// A C++ proxy app's allocation helpers: one-line templates in a header
// that return malloc's block (names_cxx.cpp).
#include <cstdlib>
template <class T> T *Allocate(size_t n) { return static_cast<T *>(malloc(sizeof(T) * n)); }
template <class T> void Release(T **p) { free(*p); *p = 0; }
