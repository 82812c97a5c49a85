// Swift's Glibc module leaves out sync_file_range (a GNU extension behind _GNU_SOURCE): this is
// the one call it needs, passed through.
#define _GNU_SOURCE
#include "CFileHints.h"

#ifdef __linux__
#include <fcntl.h>

int cfilehints_start_writeback(int fd, long long offset, long long length) {
    return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE);
}
#else
int cfilehints_start_writeback(int fd, long long offset, long long length) {
    (void)fd;
    (void)offset;
    (void)length;
    return 0;
}
#endif
