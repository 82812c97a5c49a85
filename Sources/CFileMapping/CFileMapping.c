// Mapping a file read-only with a guard against its truncation: a mapped page past a file's end
// raises SIGBUS when read. The guard's handler replaces such pages of a registered mapping by
// zero pages, notes the cut, and lets the read go on; a reader checks the note when it is done.
// Any other SIGBUS goes to the handler that was installed before (the runtime's, or the default).
// Written in C because a signal handler must be async-signal-safe, which Swift code is not.
#define _GNU_SOURCE
#include "CFileMapping.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

enum { slot_count = 64 };

static _Atomic int slot_claimed[slot_count];
static _Atomic uintptr_t slot_start[slot_count];
static _Atomic uintptr_t slot_end[slot_count];
static _Atomic int slot_cut[slot_count];
static struct sigaction previous_action;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static int install_result = -1;

static void forward(int signal_number, siginfo_t *info, void *context) {
    if (previous_action.sa_flags & SA_SIGINFO) {
        if (previous_action.sa_sigaction) {
            previous_action.sa_sigaction(signal_number, info, context);
            return;
        }
    } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
        previous_action.sa_handler(signal_number);
        return;
    }
    // The default: put it back, and the faulting read, run again on return, ends the process.
    struct sigaction fallback;
    fallback.sa_handler = SIG_DFL;
    fallback.sa_flags = 0;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
}

static void on_bus_error(int signal_number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; index < slot_count; index++) {
        uintptr_t start = atomic_load(&slot_start[index]);
        uintptr_t end = atomic_load(&slot_end[index]);
        if (start == 0 || address < start || address >= end) continue;
        uintptr_t page = address & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
        // Every page from the faulting one to the mapping's end is past the file's end.
        void *zeros = mmap((void *)page, end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;
        atomic_store(&slot_cut[index], 1);
        return;
    }
    forward(signal_number, info, context);
}

/// Installs the handler (once, by `pthread_once`).
static void install(void) {
    struct sigaction action;
    action.sa_sigaction = on_bus_error;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    install_result = sigaction(SIGBUS, &action, &previous_action);
}

const void *cfilemapping_map(int fd, size_t length) {
    pthread_once(&install_once, install);
    if (length == 0 || install_result != 0) {
        errno = EINVAL;
        return NULL;
    }
#ifdef MAP_POPULATE
    // The page tables filled in one call: cheaper than a fault for every few pages read.
    int populate = MAP_POPULATE;
#else
    int populate = 0;
#endif
    void *mapped = mmap(NULL, length, PROT_READ, MAP_PRIVATE | populate, fd, 0);
    if (mapped == MAP_FAILED) return NULL;
    uintptr_t start = (uintptr_t)mapped;
    for (int index = 0; index < slot_count; index++) {
        int unclaimed = 0;
        if (!atomic_compare_exchange_strong(&slot_claimed[index], &unclaimed, 1)) continue;
        // The end before the start that makes the slot live (the handler reads the start first).
        atomic_store(&slot_cut[index], 0);
        atomic_store(&slot_end[index], start + length);
        atomic_store(&slot_start[index], start);
        return mapped;
    }
    munmap(mapped, length);
    errno = ENOMEM;
    return NULL;
}

int cfilemapping_was_cut(const void *address) {
    for (int index = 0; index < slot_count; index++) {
        if (atomic_load(&slot_start[index]) == (uintptr_t)address) return atomic_load(&slot_cut[index]);
    }
    return 0;
}

void cfilemapping_unmap(const void *address, size_t length) {
    for (int index = 0; index < slot_count; index++) {
        if (atomic_load(&slot_start[index]) == (uintptr_t)address) {
            atomic_store(&slot_start[index], 0);
            atomic_store(&slot_claimed[index], 0);
            break;
        }
    }
    munmap((void *)address, length);
}
