// The malloc statistics the memory scenario reads; Swift's Glibc module does not expose <malloc.h>.
#ifndef C_MALLOC_INFO_H
#define C_MALLOC_INFO_H

#include <stddef.h>

/// Bytes in use on the malloc heap: allocated arena bytes plus mmapped blocks (glibc `mallinfo2`).
size_t c_malloc_heap_bytes(void);

#endif
