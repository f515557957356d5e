/* Page-level encryption at rest as a VFS shim (see parley_vfs.h for the interface).
 *
 * The shim follows SQLite's cksumvfs: it registers itself as the default VFS over the platform
 * VFS, keeps its per-page data in the page's reserved bytes (database header byte 20) and sees
 * every read and write of the main database, its WAL and its rollback journal.
 *
 * Sealed page (P = page size, R = PARLEY_VFS_RESERVE = 40):
 *
 *     [0, P-R)       XChaCha20-Poly1305 ciphertext of the plaintext page's first P-R bytes
 *     [P-R, P-16)    24-byte nonce, fresh from randombytes_buf for every write
 *     [P-16, P)      16-byte Poly1305 tag
 *
 * The associated data binds where the page may be read back:
 *
 *     page number (uint32 big-endian) | file kind (1 database, 2 WAL, 3 journal) | P (uint32 BE)
 *
 * SQLite never looks inside the reserve, so plaintext pages leave here with a zero reserve and
 * come back with a zero reserve. That matters: the WAL and journal checksums SQLite computes
 * over the plaintext page must still match what a read returns.
 *
 * Files:
 *   main database  every write is one whole page at a page-aligned offset; page 1, header
 *                  included, is sealed like any other page.
 *   WAL            the 32-byte WAL header and the 24-byte frame headers stay plaintext (SQLite
 *                  needs the salts and checksums to find the valid frames); each frame's page
 *                  image is sealed with the page number from its frame header.
 *   rollback       records are 4-byte page number | page image | 4-byte checksum; page images
 *   journal        (page-sized, at offsets = 4 mod 8) are sealed with the record's page number;
 *                  the rest is bookkeeping and is checked to be nothing else.
 *   anything else  (temporary files, super-journals, databases without a key) is opened
 *                  directly on the wrapped VFS.
 *
 * Keys live in sodium_malloc'd memory (guarded, locked where the OS allows) and are wiped when
 * forgotten. Nothing here logs key material; sqlite3_log messages name files and offsets only. */

#include "parley_vfs.h"

#include <pthread.h>
#include <sodium.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONCE_BYTES crypto_aead_xchacha20poly1305_ietf_NPUBBYTES
#define TAG_BYTES crypto_aead_xchacha20poly1305_ietf_ABYTES
_Static_assert(NONCE_BYTES + TAG_BYTES == PARLEY_VFS_RESERVE, "the reserve holds nonce and tag");
_Static_assert(crypto_aead_xchacha20poly1305_ietf_KEYBYTES == PARLEY_VFS_KEY_BYTES, "key length");

enum {
    MIN_PAGE_SIZE = 512,
    MAX_PAGE_SIZE = 65536,
    HEADER_PAGE_SIZE_OFFSET = 16,    /* database header: page size, 2 bytes big-endian */
    HEADER_RESERVE_OFFSET = 20,      /* database header: reserved bytes per page */
    ASSOCIATED_DATA_BYTES = 9,
    WAL_HEADER_BYTES = 32,
    WAL_FRAME_HEADER_BYTES = 24,
    JOURNAL_HEADER_BYTES = 28,
    PAGE_ONE_READ_ATTEMPTS = 3,
};

/* SQLite never stores data on the page holding this byte; a rollback journal uses that page's
 * number to mark the record holding a super-journal name instead of a page. */
#define LOCK_BYTE_OFFSET 0x40000000

/* Device promises that would let SQLite buffer a journal in memory and spill it in chunks, or
 * read parts of a page: both would hand this shim byte ranges it cannot seal or open. */
#ifndef SQLITE_IOCAP_SUBPAGE_READ
#define SQLITE_IOCAP_SUBPAGE_READ 0x00008000
#endif
#define HIDDEN_DEVICE_CHARACTERISTICS                                                        \
    (SQLITE_IOCAP_ATOMIC | SQLITE_IOCAP_ATOMIC512 | SQLITE_IOCAP_ATOMIC1K |                  \
     SQLITE_IOCAP_ATOMIC2K | SQLITE_IOCAP_ATOMIC4K | SQLITE_IOCAP_ATOMIC8K |                 \
     SQLITE_IOCAP_ATOMIC16K | SQLITE_IOCAP_ATOMIC32K | SQLITE_IOCAP_ATOMIC64K |              \
     SQLITE_IOCAP_BATCH_ATOMIC | SQLITE_IOCAP_SUBPAGE_READ)

typedef enum { FILE_KIND_MAIN_DB = 1, FILE_KIND_WAL = 2, FILE_KIND_JOURNAL = 3 } FileKind;

/* An open keyed file. SQLite allocates szOsFile bytes per file; the wrapped VFS's file object
 * lives right after this struct. SQLite never calls one file's methods concurrently, so the
 * buffers need no lock. */
typedef struct ParleyFile {
    sqlite3_file base;
    sqlite3_file *lower;
    FileKind kind;
    const char *path;             /* for log messages; SQLite keeps it alive until xClose */
    unsigned char *key;           /* sodium_malloc'd copy */
    int pageSize;                 /* main db: size of the last page opened or sealed;
                                     WAL: from the WAL header; 0 while unknown */
    unsigned char *scratch;       /* a sealed or opened page (or frame) */
    int scratchSize;
    unsigned char *staged;        /* WAL: first piece of a page image SQLite wrote in two */
    sqlite3_int64 stagedFrameOffset;
    int stagedBytes;
} ParleyFile;

static const sqlite3_io_methods parleyIoMethods;
static sqlite3_vfs parleyVfs;

/* Registration. */

static pthread_mutex_t registrationLock = PTHREAD_MUTEX_INITIALIZER; /* guards parleyVfs setup */

static sqlite3_vfs *wrappedVfs(void)
{
    pthread_mutex_lock(&registrationLock);
    sqlite3_vfs *lower = parleyVfs.pAppData;
    pthread_mutex_unlock(&registrationLock);
    return lower;
}

/* Keys by main database path. */

typedef struct KeyEntry {
    struct KeyEntry *next;
    char *path;
    unsigned char *key;
} KeyEntry;

static pthread_mutex_t registryLock = PTHREAD_MUTEX_INITIALIZER; /* guards keyRegistry */
static KeyEntry *keyRegistry;

static unsigned char *copyKey(const unsigned char *key)
{
    unsigned char *copy = sodium_malloc(PARLEY_VFS_KEY_BYTES);
    if (copy != NULL) memcpy(copy, key, PARLEY_VFS_KEY_BYTES);
    return copy;
}

static void destroyKey(unsigned char *key)
{
    if (key == NULL) return;
    sodium_memzero(key, PARLEY_VFS_KEY_BYTES);
    sodium_free(key);
}

/* SQLite opens databases by the name the wrapped VFS's xFullPathname produces; registering keys
 * under that same name makes "db.sqlite", "./db.sqlite" and a symlink find one key. */
static int canonicalPath(const char *path, char **canonical)
{
    sqlite3_vfs *lower = wrappedVfs();
    *canonical = NULL;
    if (lower == NULL || path == NULL) return SQLITE_MISUSE;
    char *resolved = sqlite3_malloc(lower->mxPathname + 1);
    if (resolved == NULL) return SQLITE_NOMEM;
    int rc = lower->xFullPathname(lower, path, lower->mxPathname + 1, resolved);
    if ((rc & 0xff) != SQLITE_OK) { /* SQLITE_OK_SYMLINK is a success */
        sqlite3_free(resolved);
        return rc;
    }
    *canonical = resolved;
    return SQLITE_OK;
}

static KeyEntry **findKeyEntry(const char *path)
{
    KeyEntry **link = &keyRegistry;
    while (*link != NULL && strcmp((*link)->path, path) != 0) link = &(*link)->next;
    return link;
}

/* Copies the key registered for `path` into *key (NULL when there is none). */
static int copyRegisteredKey(const char *path, unsigned char **key)
{
    int rc = SQLITE_OK;
    *key = NULL;
    pthread_mutex_lock(&registryLock);
    KeyEntry *entry = *findKeyEntry(path);
    if (entry != NULL) {
        *key = copyKey(entry->key);
        if (*key == NULL) rc = SQLITE_NOMEM;
    }
    pthread_mutex_unlock(&registryLock);
    return rc;
}

/* Byte helpers. */

static uint32_t readBigEndian32(const unsigned char *bytes)
{
    return ((uint32_t)bytes[0] << 24) | ((uint32_t)bytes[1] << 16) | ((uint32_t)bytes[2] << 8) |
           (uint32_t)bytes[3];
}

static void writeBigEndian32(unsigned char *bytes, uint32_t value)
{
    bytes[0] = (unsigned char)(value >> 24);
    bytes[1] = (unsigned char)(value >> 16);
    bytes[2] = (unsigned char)(value >> 8);
    bytes[3] = (unsigned char)value;
}

static int isPageSize(sqlite3_int64 size)
{
    return size >= MIN_PAGE_SIZE && size <= MAX_PAGE_SIZE && (size & (size - 1)) == 0;
}

static int isAllZero(const unsigned char *bytes, int count)
{
    unsigned char seen = 0;
    for (int i = 0; i < count; i++) seen |= bytes[i];
    return seen == 0;
}

/* Sealing and opening pages. */

static void describePage(unsigned char ad[ASSOCIATED_DATA_BYTES], FileKind kind,
                         uint32_t pageNumber, int pageSize)
{
    writeBigEndian32(ad, pageNumber);
    ad[4] = (unsigned char)kind;
    writeBigEndian32(ad + 5, (uint32_t)pageSize);
}

/* Page 1 starts with the database header, which must agree with how pages are sealed. Sealing
 * overwrites the last 40 bytes of every page, so a header that does not reserve them would lose
 * data. And a header declaring another page size than the one its page is written at comes from
 * a page-size change (PRAGMA page_size + VACUUM, or a backup from a database with another page
 * size): SQLite then copies the new layout in chunks of the old page size, whose last 40 bytes
 * are data, not reserve. Returns what is wrong, or NULL; a page 1 without a header passes. */
static const char *pageOneProblem(const unsigned char *plain, uint32_t pageNumber, int pageSize)
{
    if (pageNumber != 1 || memcmp(plain, "SQLite format 3", 16) != 0) return NULL;
    if (plain[HEADER_RESERVE_OFFSET] != PARLEY_VFS_RESERVE)
        return "its header does not reserve 40 bytes per page (set SQLITE_FCNTL_RESERVE_BYTES "
               "before the first write)";
    const int declaredSize = (plain[HEADER_PAGE_SIZE_OFFSET] << 8) | plain[HEADER_PAGE_SIZE_OFFSET + 1];
    if ((declaredSize == 1 ? MAX_PAGE_SIZE : declaredSize) != pageSize)
        return "its header declares another page size (the page size of an encrypted database "
               "cannot change)";
    return NULL;
}

/* Seals `plain` into `sealed` (distinct buffers of pageSize bytes). */
static int sealPage(const ParleyFile *file, uint32_t pageNumber, int pageSize,
                    const unsigned char *plain, unsigned char *sealed)
{
    const char *problem = pageOneProblem(plain, pageNumber, pageSize);
    if (problem != NULL) {
        sqlite3_log(SQLITE_IOERR_WRITE, "parley_vfs: %s: refusing to seal page 1: %s", file->path,
                    problem);
        return SQLITE_IOERR_WRITE;
    }
    const int bodyBytes = pageSize - PARLEY_VFS_RESERVE;
    unsigned char *nonce = sealed + bodyBytes;
    unsigned char *tag = nonce + NONCE_BYTES;
    unsigned char ad[ASSOCIATED_DATA_BYTES];
    describePage(ad, file->kind, pageNumber, pageSize);
    randombytes_buf(nonce, NONCE_BYTES);
    crypto_aead_xchacha20poly1305_ietf_encrypt_detached(sealed, tag, NULL, plain, bodyBytes, ad,
                                                        sizeof ad, NULL, nonce, file->key);
    return SQLITE_OK;
}

/* Opens `sealed` into `plain` (the same buffer or distinct ones) and zeroes the reserve.
 * Returns 0, or -1 when the page does not authenticate. */
static int openPage(const ParleyFile *file, uint32_t pageNumber, int pageSize,
                    const unsigned char *sealed, unsigned char *plain)
{
    const int bodyBytes = pageSize - PARLEY_VFS_RESERVE;
    unsigned char nonce[NONCE_BYTES];
    unsigned char tag[TAG_BYTES];
    memcpy(nonce, sealed + bodyBytes, NONCE_BYTES);
    memcpy(tag, sealed + bodyBytes + NONCE_BYTES, TAG_BYTES);
    unsigned char ad[ASSOCIATED_DATA_BYTES];
    describePage(ad, file->kind, pageNumber, pageSize);
    if (crypto_aead_xchacha20poly1305_ietf_decrypt_detached(plain, NULL, sealed, bodyBytes, tag,
                                                            ad, sizeof ad, nonce, file->key) != 0)
        return -1;
    memset(plain + bodyBytes, 0, PARLEY_VFS_RESERVE);
    return pageOneProblem(plain, pageNumber, pageSize) == NULL ? 0 : -1;
}

int parley_vfs_open_database_page(const unsigned char key[PARLEY_VFS_KEY_BYTES], unsigned int page_number,
                                  int page_size, const unsigned char *sealed, unsigned char *plain)
{
    if (key == NULL || sealed == NULL || plain == NULL || !isPageSize(page_size)) return -1;
    ParleyFile file;
    memset(&file, 0, sizeof file);
    file.kind = FILE_KIND_MAIN_DB;
    file.key = (unsigned char *)key;
    return openPage(&file, page_number, page_size, sealed, plain);
}

/* Plumbing shared by all keyed files. */

static int lowerRead(ParleyFile *file, void *buffer, int amount, sqlite3_int64 offset)
{
    return file->lower->pMethods->xRead(file->lower, buffer, amount, offset);
}

static int lowerWrite(ParleyFile *file, const void *buffer, int amount, sqlite3_int64 offset)
{
    return file->lower->pMethods->xWrite(file->lower, buffer, amount, offset);
}

static int ensureScratch(ParleyFile *file, int needed)
{
    if (file->scratchSize >= needed) return SQLITE_OK;
    unsigned char *grown = sqlite3_realloc(file->scratch, needed);
    if (grown == NULL) return SQLITE_NOMEM;
    file->scratch = grown;
    file->scratchSize = needed;
    return SQLITE_OK;
}

/* The wrapped VFS zero-filled a read that ran past end of file. A page wholly past the end reads
 * as zeros, as SQLite expects; a page cut short cannot be authenticated. */
static int finishShortRead(ParleyFile *file, unsigned char *buffer, int amount,
                           sqlite3_int64 offset)
{
    sqlite3_int64 size = 0;
    int rc = file->lower->pMethods->xFileSize(file->lower, &size);
    if (rc != SQLITE_OK) return rc;
    memset(buffer, 0, amount);
    if (size <= offset) return SQLITE_IOERR_SHORT_READ;
    sqlite3_log(SQLITE_IOERR_DATA, "parley_vfs: %s: page at offset %lld is truncated", file->path,
                offset);
    return SQLITE_IOERR_DATA;
}

/* WAL frames and journal records name their page in 4 plaintext bytes written just before the
 * page image. */
static int readPageNumberAt(ParleyFile *file, sqlite3_int64 offset, uint32_t *pageNumber)
{
    unsigned char bytes[4];
    int rc = lowerRead(file, bytes, sizeof bytes, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) return SQLITE_IOERR_DATA;
    if (rc != SQLITE_OK) return rc;
    *pageNumber = readBigEndian32(bytes);
    return SQLITE_OK;
}

static int refuse(ParleyFile *file, int code, const char *what, int amount, sqlite3_int64 offset)
{
    sqlite3_log(code, "parley_vfs: %s: refusing to %s %d bytes at offset %lld", file->path, what,
                amount, offset);
    return code;
}

/* Main database. */

static int readMainDatabasePage(ParleyFile *file, unsigned char *page, int pageSize,
                                sqlite3_int64 offset)
{
    int rc = lowerRead(file, page, pageSize, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) return finishShortRead(file, page, pageSize, offset);
    if (rc != SQLITE_OK) return rc;
    const uint32_t pageNumber = (uint32_t)(offset / pageSize) + 1;
    if (openPage(file, pageNumber, pageSize, page, page) != 0) {
        sqlite3_log(SQLITE_IOERR_DATA, "parley_vfs: %s: page %u does not authenticate",
                    file->path, pageNumber);
        return SQLITE_IOERR_DATA;
    }
    file->pageSize = pageSize;
    return SQLITE_OK;
}

/* Tries to open page 1 as a page of `size` bytes into file->scratch: SQLITE_OK when it opens,
 * SQLITE_NOTFOUND when it does not, or an I/O error. */
static int openPageOneAt(ParleyFile *file, int size, sqlite3_int64 fileSize)
{
    if (size > fileSize) return SQLITE_NOTFOUND;
    int rc = lowerRead(file, file->scratch, size, 0);
    if (rc == SQLITE_IOERR_SHORT_READ) return SQLITE_NOTFOUND; /* truncated meanwhile */
    if (rc != SQLITE_OK) return rc;
    if (openPage(file, 1, size, file->scratch, file->scratch) != 0) return SQLITE_NOTFOUND;
    file->pageSize = size;
    return SQLITE_OK;
}

/* Opens page 1 into file->scratch, finding the page size on the way. Page 1 holds the page size
 * but is sealed too; the associated data binds the page size, so page 1 opens only at the size
 * it was sealed at: try each size SQLite allows, the last known one first. No match means a
 * wrong key or a file this module did not encrypt.
 *
 * SQLite reads the header at open without holding a lock, so a checkpoint in another connection
 * may be rewriting page 1 at that instant; a torn read fails like a wrong key, hence the retry. */
static int readPageOne(ParleyFile *file)
{
    static const int candidateSizes[] = {4096, 8192, 16384, 32768, 65536, 1024, 2048, 512};
    sqlite3_int64 fileSize = 0;
    int rc = file->lower->pMethods->xFileSize(file->lower, &fileSize);
    if (rc != SQLITE_OK) return rc;
    if (fileSize == 0) return SQLITE_IOERR_SHORT_READ;
    rc = ensureScratch(file, MAX_PAGE_SIZE);
    if (rc != SQLITE_OK) return rc;
    const int knownSize = file->pageSize;
    for (int attempt = 0; attempt < PAGE_ONE_READ_ATTEMPTS; attempt++) {
        if (knownSize != 0 && (rc = openPageOneAt(file, knownSize, fileSize)) != SQLITE_NOTFOUND)
            return rc;
        for (size_t i = 0; i < sizeof candidateSizes / sizeof candidateSizes[0]; i++) {
            if (candidateSizes[i] == knownSize) continue;
            rc = openPageOneAt(file, candidateSizes[i], fileSize);
            if (rc != SQLITE_NOTFOUND) return rc;
        }
    }
    sqlite3_log(SQLITE_NOTADB, "parley_vfs: %s: page 1 does not open with this key", file->path);
    return SQLITE_NOTADB;
}

/* Serves a read that is not one whole page (SQLite reads the first 100 bytes of the header
 * before it knows the page size) from the plaintext of the pages it covers. */
static int readMainDatabaseRange(ParleyFile *file, unsigned char *buffer, int amount,
                                 sqlite3_int64 offset)
{
    while (amount > 0) {
        int rc;
        if (file->pageSize == 0 || offset < file->pageSize) {
            rc = readPageOne(file);
        } else {
            rc = ensureScratch(file, file->pageSize);
            if (rc == SQLITE_OK)
                rc = readMainDatabasePage(file, file->scratch, file->pageSize,
                                          offset - offset % file->pageSize);
        }
        if (rc == SQLITE_IOERR_SHORT_READ) {
            memset(buffer, 0, amount);
            return rc;
        }
        if (rc != SQLITE_OK) return rc;
        const int within = (int)(offset % file->pageSize);
        const int chunk = amount < file->pageSize - within ? amount : file->pageSize - within;
        memcpy(buffer, file->scratch + within, chunk);
        buffer += chunk;
        offset += chunk;
        amount -= chunk;
    }
    return SQLITE_OK;
}

static int readMainDatabase(ParleyFile *file, unsigned char *buffer, int amount,
                            sqlite3_int64 offset)
{
    if (isPageSize(amount) && offset % amount == 0) {
        int rc = readMainDatabasePage(file, buffer, amount, offset);
        if (rc != SQLITE_IOERR_DATA || offset != 0) return rc;
        /* Page 1 did not open at the size SQLite assumed: a wrong key, or another connection
         * created the database with another page size. The range read finds the real size
         * (SQLite then sees it in the header and re-reads) or reports SQLITE_NOTADB. */
    }
    return readMainDatabaseRange(file, buffer, amount, offset);
}

static int writeMainDatabase(ParleyFile *file, const unsigned char *page, int amount,
                             sqlite3_int64 offset)
{
    if (!isPageSize(amount) || offset % amount != 0)
        return refuse(file, SQLITE_IOERR_WRITE, "write a partial page:", amount, offset);
    int rc = ensureScratch(file, amount);
    if (rc != SQLITE_OK) return rc;
    rc = sealPage(file, (uint32_t)(offset / amount) + 1, amount, page, file->scratch);
    if (rc != SQLITE_OK) return rc;
    file->pageSize = amount;
    return lowerWrite(file, file->scratch, amount, offset);
}

/* WAL. */

static void rememberWalPageSize(ParleyFile *file, const unsigned char *walHeader)
{
    const uint32_t magic = readBigEndian32(walHeader);
    const uint32_t pageSize = readBigEndian32(walHeader + 8);
    if ((magic & 0xFFFFFFFEu) == 0x377f0682u && isPageSize(pageSize))
        file->pageSize = (int)pageSize;
}

/* A connection that joins a WAL another connection recovered never reads the WAL header, so
 * the frame geometry may have to come from the file. Returns 1 when the page size is known. */
static int knowWalPageSize(ParleyFile *file)
{
    if (file->pageSize != 0) return 1;
    unsigned char header[WAL_HEADER_BYTES];
    if (lowerRead(file, header, sizeof header, 0) == SQLITE_OK) rememberWalPageSize(file, header);
    return file->pageSize != 0;
}

/* Where `offset` falls in the WAL's frames: the frame's start and the offset within it. */
static void locateInWal(const ParleyFile *file, sqlite3_int64 offset, sqlite3_int64 *frameOffset,
                        int *within)
{
    const int frameSize = WAL_FRAME_HEADER_BYTES + file->pageSize;
    *within = (int)((offset - WAL_HEADER_BYTES) % frameSize);
    *frameOffset = offset - *within;
}

/* A page image SQLite reads on its own: the frame belongs to a committed transaction, so a
 * failure to authenticate is tampering or damage. */
static int readWalPage(ParleyFile *file, unsigned char *page, sqlite3_int64 frameOffset)
{
    const sqlite3_int64 pageOffset = frameOffset + WAL_FRAME_HEADER_BYTES;
    int rc = lowerRead(file, page, file->pageSize, pageOffset);
    if (rc == SQLITE_IOERR_SHORT_READ) return finishShortRead(file, page, file->pageSize, pageOffset);
    if (rc != SQLITE_OK) return rc;
    uint32_t pageNumber = 0;
    rc = readPageNumberAt(file, frameOffset, &pageNumber);
    if (rc != SQLITE_OK) return rc;
    if (openPage(file, pageNumber, file->pageSize, page, page) != 0) {
        sqlite3_log(SQLITE_IOERR_DATA,
                    "parley_vfs: %s: frame at offset %lld (page %u) does not authenticate",
                    file->path, frameOffset, pageNumber);
        return SQLITE_IOERR_DATA;
    }
    return SQLITE_OK;
}

/* A whole frame, header and page, in one read: WAL recovery scanning for the last valid commit
 * (also the checksum rewrite after a cache spill). After a crash the frames past the last
 * commit can hold a new header over an older page image, which does not authenticate; SQLite
 * must see such a frame as invalid and stop there, as it would at a checksum mismatch, rather
 * than fail the recovery. A zeroed frame has page number 0, which SQLite always rejects. */
static int readWalFrame(ParleyFile *file, unsigned char *frame, sqlite3_int64 frameOffset)
{
    const int frameSize = WAL_FRAME_HEADER_BYTES + file->pageSize;
    int rc = lowerRead(file, frame, frameSize, frameOffset);
    if (rc == SQLITE_IOERR_SHORT_READ) memset(frame, 0, frameSize);
    if (rc != SQLITE_OK) return rc;
    const uint32_t pageNumber = readBigEndian32(frame);
    if (openPage(file, pageNumber, file->pageSize, frame + WAL_FRAME_HEADER_BYTES,
                 frame + WAL_FRAME_HEADER_BYTES) != 0) {
        sqlite3_log(SQLITE_NOTICE,
                    "parley_vfs: %s: frame at offset %lld does not authenticate; "
                    "recovery treats it as the end of the log",
                    file->path, frameOffset);
        memset(frame, 0, frameSize);
    }
    return SQLITE_OK;
}

static int readWal(ParleyFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset)
{
    if (offset + amount <= WAL_HEADER_BYTES) {
        int rc = lowerRead(file, buffer, amount, offset);
        if (rc == SQLITE_OK && offset == 0 && amount == WAL_HEADER_BYTES)
            rememberWalPageSize(file, buffer);
        return rc;
    }
    if (!knowWalPageSize(file) || offset < WAL_HEADER_BYTES)
        return refuse(file, SQLITE_IOERR_READ, "read", amount, offset);
    sqlite3_int64 frameOffset;
    int within;
    locateInWal(file, offset, &frameOffset, &within);
    if (within + amount <= WAL_FRAME_HEADER_BYTES) return lowerRead(file, buffer, amount, offset);
    if (within == WAL_FRAME_HEADER_BYTES && amount == file->pageSize)
        return readWalPage(file, buffer, frameOffset);
    if (within == 0 && amount == WAL_FRAME_HEADER_BYTES + file->pageSize)
        return readWalFrame(file, buffer, frameOffset);
    return refuse(file, SQLITE_IOERR_READ, "read", amount, offset);
}

static int writeWalPage(ParleyFile *file, const unsigned char *page, sqlite3_int64 frameOffset)
{
    uint32_t pageNumber = 0;
    int rc = readPageNumberAt(file, frameOffset, &pageNumber); /* SQLite wrote the header first */
    if (rc == SQLITE_OK) rc = ensureScratch(file, file->pageSize);
    if (rc == SQLITE_OK) rc = sealPage(file, pageNumber, file->pageSize, page, file->scratch);
    if (rc != SQLITE_OK) return rc;
    return lowerWrite(file, file->scratch, file->pageSize, frameOffset + WAL_FRAME_HEADER_BYTES);
}

/* When the file system does not promise power-safe overwrite, SQLite pads a commit with copies
 * of its last frame up to a sector boundary and splits the write that crosses the boundary,
 * with an fsync between the pieces. A page seals only whole, so the first piece waits here for
 * the second. Only padding frames are split, and a crash between the pieces leaves a frame that
 * recovery discards, exactly as an unfinished padding frame would be. */
static int stageWalPagePiece(ParleyFile *file, const unsigned char *piece, int amount,
                             sqlite3_int64 frameOffset, int pieceStart)
{
    if (pieceStart == 0) {
        file->stagedFrameOffset = frameOffset;
        file->stagedBytes = 0;
    } else if (file->stagedBytes != pieceStart || file->stagedFrameOffset != frameOffset) {
        return refuse(file, SQLITE_IOERR_WRITE, "write an unaligned page piece:", amount,
                      frameOffset + WAL_FRAME_HEADER_BYTES + pieceStart);
    }
    if (file->staged == NULL && (file->staged = sqlite3_malloc(file->pageSize)) == NULL)
        return SQLITE_NOMEM;
    memcpy(file->staged + pieceStart, piece, amount);
    file->stagedBytes += amount;
    if (file->stagedBytes < file->pageSize) return SQLITE_OK;
    file->stagedBytes = 0;
    return writeWalPage(file, file->staged, frameOffset);
}

static int writeWal(ParleyFile *file, const unsigned char *data, int amount, sqlite3_int64 offset)
{
    if (offset + amount <= WAL_HEADER_BYTES) {
        if (offset == 0 && amount == WAL_HEADER_BYTES) rememberWalPageSize(file, data);
        return lowerWrite(file, data, amount, offset);
    }
    if (!knowWalPageSize(file) || offset < WAL_HEADER_BYTES)
        return refuse(file, SQLITE_IOERR_WRITE, "write", amount, offset);
    sqlite3_int64 frameOffset;
    int within;
    locateInWal(file, offset, &frameOffset, &within);
    const int frameSize = WAL_FRAME_HEADER_BYTES + file->pageSize;
    /* SQLite writes a frame as its header, then its page image. */
    if (within + amount <= WAL_FRAME_HEADER_BYTES) return lowerWrite(file, data, amount, offset);
    if (within == WAL_FRAME_HEADER_BYTES && amount == file->pageSize)
        return writeWalPage(file, data, frameOffset);
    if (within >= WAL_FRAME_HEADER_BYTES && within + amount <= frameSize)
        return stageWalPagePiece(file, data, amount, frameOffset,
                                 within - WAL_FRAME_HEADER_BYTES);
    return refuse(file, SQLITE_IOERR_WRITE, "write", amount, offset);
}

/* Rollback journal. */

/* Journal records are 4-byte page number | page | 4-byte checksum, laid after a header whose
 * size is the sector size, so page images are page-sized and sit at offsets = 4 (mod 8); no
 * other page-sized journal write does. */
static int isJournalPageImage(int amount, sqlite3_int64 offset)
{
    return isPageSize(amount) && offset % 8 == 4;
}

static int isSuperJournalMarker(uint32_t pageNumber, int pageSize)
{
    return pageNumber == LOCK_BYTE_OFFSET / (uint32_t)pageSize + 1;
}

static int followsSuperJournalMarker(ParleyFile *file, sqlite3_int64 offset)
{
    uint32_t pageNumber = 0;
    if (offset < 4 || readPageNumberAt(file, offset - 4, &pageNumber) != SQLITE_OK) return 0;
    for (int size = MIN_PAGE_SIZE; size <= MAX_PAGE_SIZE; size *= 2)
        if (isSuperJournalMarker(pageNumber, size)) return 1;
    return 0;
}

/* Everything else SQLite writes to a journal is bookkeeping: page numbers and checksums (4
 * bytes), the magic (8), magic and record count (12), the 28-byte header padded with zeros to a
 * sector, and a super-journal name after its marker record. A write that is none of these
 * (an in-memory journal spilling in chunks) could carry page content; it is refused. */
static int isJournalBookkeeping(ParleyFile *file, const unsigned char *data, int amount,
                                sqlite3_int64 offset)
{
    if (amount <= JOURNAL_HEADER_BYTES) return 1;
    if (isAllZero(data + JOURNAL_HEADER_BYTES, amount - JOURNAL_HEADER_BYTES)) return 1;
    return followsSuperJournalMarker(file, offset);
}

/* Playing back a journal, SQLite stops at the first record whose checksum fails: that is how it
 * ignores a record torn by a crash or left over from an earlier transaction. A record that does
 * not authenticate is returned as zeros, whose checksum fails, so playback stops there too
 * instead of failing outright, and no unauthenticated byte reaches the database. */
static int readJournal(ParleyFile *file, unsigned char *buffer, int amount, sqlite3_int64 offset)
{
    if (!isJournalPageImage(amount, offset)) return lowerRead(file, buffer, amount, offset);
    int rc = lowerRead(file, buffer, amount, offset);
    if (rc == SQLITE_IOERR_SHORT_READ) memset(buffer, 0, amount); /* no partial ciphertext */
    if (rc != SQLITE_OK) return rc;
    uint32_t pageNumber = 0;
    rc = readPageNumberAt(file, offset - 4, &pageNumber);
    if (rc != SQLITE_OK) return rc;
    if (isSuperJournalMarker(pageNumber, amount)) return SQLITE_OK;
    if (openPage(file, pageNumber, amount, buffer, buffer) != 0) {
        sqlite3_log(SQLITE_NOTICE,
                    "parley_vfs: %s: record at offset %lld (page %u) does not authenticate; "
                    "playback stops there",
                    file->path, offset, pageNumber);
        memset(buffer, 0, amount);
    }
    return SQLITE_OK;
}

static int writeJournal(ParleyFile *file, const unsigned char *data, int amount,
                        sqlite3_int64 offset)
{
    if (isJournalPageImage(amount, offset)) {
        uint32_t pageNumber = 0;
        int rc = readPageNumberAt(file, offset - 4, &pageNumber); /* written just before */
        if (rc != SQLITE_OK) return rc;
        if (!isSuperJournalMarker(pageNumber, amount)) {
            rc = ensureScratch(file, amount);
            if (rc == SQLITE_OK) rc = sealPage(file, pageNumber, amount, data, file->scratch);
            if (rc != SQLITE_OK) return rc;
            return lowerWrite(file, file->scratch, amount, offset);
        }
    } else if (!isJournalBookkeeping(file, data, amount, offset)) {
        return refuse(file, SQLITE_IOERR_WRITE, "write unrecognized journal content:", amount,
                      offset);
    }
    return lowerWrite(file, data, amount, offset);
}

/* I/O methods. */

static int parleyClose(sqlite3_file *base)
{
    ParleyFile *file = (ParleyFile *)base;
    int rc = file->lower->pMethods->xClose(file->lower);
    destroyKey(file->key);
    sqlite3_free(file->scratch);
    sqlite3_free(file->staged);
    file->key = NULL;
    file->scratch = NULL;
    file->staged = NULL;
    return rc;
}

static int parleyRead(sqlite3_file *base, void *buffer, int amount, sqlite3_int64 offset)
{
    ParleyFile *file = (ParleyFile *)base;
    switch (file->kind) {
    case FILE_KIND_MAIN_DB: return readMainDatabase(file, buffer, amount, offset);
    case FILE_KIND_WAL: return readWal(file, buffer, amount, offset);
    case FILE_KIND_JOURNAL: return readJournal(file, buffer, amount, offset);
    }
    return SQLITE_IOERR_READ;
}

static int parleyWrite(sqlite3_file *base, const void *buffer, int amount, sqlite3_int64 offset)
{
    ParleyFile *file = (ParleyFile *)base;
    switch (file->kind) {
    case FILE_KIND_MAIN_DB: return writeMainDatabase(file, buffer, amount, offset);
    case FILE_KIND_WAL: return writeWal(file, buffer, amount, offset);
    case FILE_KIND_JOURNAL: return writeJournal(file, buffer, amount, offset);
    }
    return SQLITE_IOERR_WRITE;
}

static int parleyTruncate(sqlite3_file *base, sqlite3_int64 size)
{
    ParleyFile *file = (ParleyFile *)base;
    file->stagedBytes = 0;
    return file->lower->pMethods->xTruncate(file->lower, size);
}

static int parleySync(sqlite3_file *base, int flags)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xSync(file->lower, flags);
}

static int parleyFileSize(sqlite3_file *base, sqlite3_int64 *size)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xFileSize(file->lower, size);
}

static int parleyLock(sqlite3_file *base, int level)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xLock(file->lower, level);
}

static int parleyUnlock(sqlite3_file *base, int level)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xUnlock(file->lower, level);
}

static int parleyCheckReservedLock(sqlite3_file *base, int *isReserved)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xCheckReservedLock(file->lower, isReserved);
}

static int parleyFileControl(sqlite3_file *base, int op, void *argument)
{
    ParleyFile *file = (ParleyFile *)base;
    int rc = file->lower->pMethods->xFileControl(file->lower, op, argument);
    if (rc == SQLITE_OK && op == SQLITE_FCNTL_VFSNAME)
        *(char **)argument = sqlite3_mprintf("parley/%z", *(char **)argument);
    return rc;
}

static int parleySectorSize(sqlite3_file *base)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xSectorSize(file->lower);
}

static int parleyDeviceCharacteristics(sqlite3_file *base)
{
    ParleyFile *file = (ParleyFile *)base;
    return file->lower->pMethods->xDeviceCharacteristics(file->lower) &
           ~HIDDEN_DEVICE_CHARACTERISTICS;
}

static int parleyShmMap(sqlite3_file *base, int region, int regionSize, int extend,
                        void volatile **mapping)
{
    ParleyFile *file = (ParleyFile *)base;
    if (file->lower->pMethods->iVersion < 2) return SQLITE_IOERR_SHMMAP;
    return file->lower->pMethods->xShmMap(file->lower, region, regionSize, extend, mapping);
}

static int parleyShmLock(sqlite3_file *base, int offset, int count, int flags)
{
    ParleyFile *file = (ParleyFile *)base;
    if (file->lower->pMethods->iVersion < 2) return SQLITE_IOERR_SHMLOCK;
    return file->lower->pMethods->xShmLock(file->lower, offset, count, flags);
}

static void parleyShmBarrier(sqlite3_file *base)
{
    ParleyFile *file = (ParleyFile *)base;
    if (file->lower->pMethods->iVersion >= 2) file->lower->pMethods->xShmBarrier(file->lower);
}

static int parleyShmUnmap(sqlite3_file *base, int deleteFlag)
{
    ParleyFile *file = (ParleyFile *)base;
    if (file->lower->pMethods->iVersion < 2) return SQLITE_OK;
    return file->lower->pMethods->xShmUnmap(file->lower, deleteFlag);
}

/* Memory-mapped pages would reach SQLite without being opened: decline, SQLite falls back to
 * xRead. */
static int parleyFetch(sqlite3_file *base, sqlite3_int64 offset, int amount, void **page)
{
    (void)base;
    (void)offset;
    (void)amount;
    *page = NULL;
    return SQLITE_OK;
}

static int parleyUnfetch(sqlite3_file *base, sqlite3_int64 offset, void *page)
{
    ParleyFile *file = (ParleyFile *)base;
    if (file->lower->pMethods->iVersion < 3) return SQLITE_OK;
    return file->lower->pMethods->xUnfetch(file->lower, offset, page);
}

static const sqlite3_io_methods parleyIoMethods = {
    3,
    parleyClose,
    parleyRead,
    parleyWrite,
    parleyTruncate,
    parleySync,
    parleyFileSize,
    parleyLock,
    parleyUnlock,
    parleyCheckReservedLock,
    parleyFileControl,
    parleySectorSize,
    parleyDeviceCharacteristics,
    parleyShmMap,
    parleyShmLock,
    parleyShmBarrier,
    parleyShmUnmap,
    parleyFetch,
    parleyUnfetch,
};

/* VFS methods. */

/* A WAL or journal is encrypted exactly when its database is, under the key the database was
 * opened with. Taking the key from the open database handle rather than the registry means a
 * key cleared or replaced meanwhile cannot leave the journal in plaintext or under another
 * key. The name SQLite gives a journal leads back to its database both ways; they must agree. */
static int inheritKey(const char *journalName, unsigned char **key)
{
    *key = NULL;
    sqlite3_file *database = sqlite3_database_file_object(journalName);
    if (database == NULL || database->pMethods != &parleyIoMethods) return SQLITE_OK;
    const ParleyFile *owner = (const ParleyFile *)database;
    if (strcmp(sqlite3_filename_database(journalName), owner->path) != 0) {
        sqlite3_log(SQLITE_CANTOPEN, "parley_vfs: %s does not belong to %s", journalName,
                    owner->path);
        return SQLITE_CANTOPEN;
    }
    *key = copyKey(owner->key);
    return *key != NULL ? SQLITE_OK : SQLITE_NOMEM;
}

static int parleyOpen(sqlite3_vfs *vfs, const char *name, sqlite3_file *base, int flags,
                      int *outFlags)
{
    sqlite3_vfs *lower = vfs->pAppData;
    unsigned char *key = NULL;
    FileKind kind = FILE_KIND_MAIN_DB;
    int rc = SQLITE_OK;
    if (name != NULL && (flags & SQLITE_OPEN_MAIN_DB)) {
        rc = copyRegisteredKey(name, &key);
    } else if (name != NULL && (flags & (SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL))) {
        kind = (flags & SQLITE_OPEN_WAL) ? FILE_KIND_WAL : FILE_KIND_JOURNAL;
        rc = inheritKey(name, &key);
    }
    if (rc != SQLITE_OK) return rc;
    if (key == NULL) return lower->xOpen(lower, name, base, flags, outFlags);

    ParleyFile *file = (ParleyFile *)base;
    memset(file, 0, sizeof *file);
    file->lower = (sqlite3_file *)(file + 1);
    file->kind = kind;
    file->path = name;
    file->key = key;
    rc = lower->xOpen(lower, name, file->lower, flags, outFlags);
    if (rc != SQLITE_OK) {
        if (file->lower->pMethods != NULL) file->lower->pMethods->xClose(file->lower);
        destroyKey(key);
        base->pMethods = NULL;
        return rc;
    }
    base->pMethods = &parleyIoMethods;
    return SQLITE_OK;
}

static int parleyDelete(sqlite3_vfs *vfs, const char *name, int syncDirectory)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xDelete(lower, name, syncDirectory);
}

static int parleyAccess(sqlite3_vfs *vfs, const char *name, int flags, int *result)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xAccess(lower, name, flags, result);
}

static int parleyFullPathname(sqlite3_vfs *vfs, const char *name, int outSize, char *out)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xFullPathname(lower, name, outSize, out);
}

static void *parleyDlOpen(sqlite3_vfs *vfs, const char *path)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xDlOpen(lower, path);
}

static void parleyDlError(sqlite3_vfs *vfs, int size, char *message)
{
    sqlite3_vfs *lower = vfs->pAppData;
    lower->xDlError(lower, size, message);
}

static void (*parleyDlSym(sqlite3_vfs *vfs, void *library, const char *symbol))(void)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xDlSym(lower, library, symbol);
}

static void parleyDlClose(sqlite3_vfs *vfs, void *library)
{
    sqlite3_vfs *lower = vfs->pAppData;
    lower->xDlClose(lower, library);
}

static int parleyRandomness(sqlite3_vfs *vfs, int size, char *out)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xRandomness(lower, size, out);
}

static int parleySleep(sqlite3_vfs *vfs, int microseconds)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xSleep(lower, microseconds);
}

static int parleyCurrentTime(sqlite3_vfs *vfs, double *julianDay)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xCurrentTime(lower, julianDay);
}

static int parleyGetLastError(sqlite3_vfs *vfs, int size, char *message)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xGetLastError(lower, size, message);
}

static int parleyCurrentTimeInt64(sqlite3_vfs *vfs, sqlite3_int64 *milliseconds)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xCurrentTimeInt64(lower, milliseconds);
}

static int parleySetSystemCall(sqlite3_vfs *vfs, const char *name, sqlite3_syscall_ptr call)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xSetSystemCall(lower, name, call);
}

static sqlite3_syscall_ptr parleyGetSystemCall(sqlite3_vfs *vfs, const char *name)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xGetSystemCall(lower, name);
}

static const char *parleyNextSystemCall(sqlite3_vfs *vfs, const char *name)
{
    sqlite3_vfs *lower = vfs->pAppData;
    return lower->xNextSystemCall(lower, name);
}

/* iVersion, szOsFile, mxPathname and pAppData are filled in by parley_vfs_register from the
 * wrapped VFS; SQLite only calls the methods its iVersion announces. */
static sqlite3_vfs parleyVfs = {
    3,
    0,
    0,
    NULL,
    "parley",
    NULL,
    parleyOpen,
    parleyDelete,
    parleyAccess,
    parleyFullPathname,
    parleyDlOpen,
    parleyDlError,
    parleyDlSym,
    parleyDlClose,
    parleyRandomness,
    parleySleep,
    parleyCurrentTime,
    parleyGetLastError,
    parleyCurrentTimeInt64,
    parleySetSystemCall,
    parleyGetSystemCall,
    parleyNextSystemCall,
};

/* Public interface. */

int parley_vfs_register(void)
{
    int rc = SQLITE_OK;
    pthread_mutex_lock(&registrationLock);
    if (parleyVfs.pAppData == NULL) {
        sqlite3_vfs *lower = sqlite3_vfs_find(NULL);
        if (sodium_init() < 0 || lower == NULL) {
            rc = SQLITE_ERROR;
        } else {
            parleyVfs.iVersion = lower->iVersion < 3 ? lower->iVersion : 3;
            parleyVfs.szOsFile = (int)sizeof(ParleyFile) + lower->szOsFile;
            parleyVfs.mxPathname = lower->mxPathname;
            parleyVfs.pAppData = lower;
            rc = sqlite3_vfs_register(&parleyVfs, 1);
            if (rc != SQLITE_OK) parleyVfs.pAppData = NULL;
        }
    }
    pthread_mutex_unlock(&registrationLock);
    return rc;
}

int parley_vfs_set_key(const char *database_path, const unsigned char key[PARLEY_VFS_KEY_BYTES])
{
    if (key == NULL) return SQLITE_MISUSE;
    char *path;
    int rc = canonicalPath(database_path, &path);
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&registryLock);
    KeyEntry *entry = *findKeyEntry(path);
    if (entry != NULL) {
        memcpy(entry->key, key, PARLEY_VFS_KEY_BYTES);
        sqlite3_free(path);
    } else if ((entry = calloc(1, sizeof *entry)) == NULL ||
               (entry->key = copyKey(key)) == NULL) {
        free(entry);
        sqlite3_free(path);
        rc = SQLITE_NOMEM;
    } else {
        entry->path = path;
        entry->next = keyRegistry;
        keyRegistry = entry;
    }
    pthread_mutex_unlock(&registryLock);
    return rc;
}

int parley_vfs_clear_key(const char *database_path)
{
    char *path;
    int rc = canonicalPath(database_path, &path);
    if (rc != SQLITE_OK) return rc;
    pthread_mutex_lock(&registryLock);
    KeyEntry **link = findKeyEntry(path);
    KeyEntry *entry = *link;
    if (entry != NULL) *link = entry->next;
    pthread_mutex_unlock(&registryLock);
    sqlite3_free(path);
    if (entry != NULL) {
        destroyKey(entry->key);
        sqlite3_free(entry->path);
        free(entry);
    }
    return SQLITE_OK;
}

int parley_vfs_is_encrypted(struct sqlite3 *db)
{
    sqlite3_file *file = NULL;
    if (db == NULL ||
        sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &file) != SQLITE_OK)
        return 0;
    return file != NULL && file->pMethods == &parleyIoMethods;
}
