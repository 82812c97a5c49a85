#ifndef CFILEHINTS_H
#define CFILEHINTS_H

/// Starts writing the dirty pages of bytes [offset, offset + length) of the file `fd` to the
/// disk without waiting for them (Linux's sync_file_range with SYNC_FILE_RANGE_WRITE), so that a
/// later fsync has less left to wait for. A hint: it makes nothing durable. Returns 0, or -1 with
/// errno; where the call does not exist it does nothing and returns 0.
int cfilehints_start_writeback(int fd, long long offset, long long length);

#endif
