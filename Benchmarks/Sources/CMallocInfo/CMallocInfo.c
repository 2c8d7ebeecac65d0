#include "CMallocInfo.h"

#include <malloc.h>

size_t c_malloc_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
