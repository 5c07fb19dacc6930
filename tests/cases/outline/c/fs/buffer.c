/* A growable byte buffer. */
#include <stdlib.h>
#include <string.h>

#define BUFFER_MIN 16
#define GROW(n) ((n) * 2)

typedef unsigned char byte;

struct buffer {
    byte *data;
    size_t len;
    size_t cap;
};

enum status { OK, NO_MEMORY };

typedef struct {
    size_t grown;
    size_t freed;
} stats_t;

static stats_t stats;

int buffer_init(struct buffer *b);
void buffer_free(struct buffer *b);

static enum status reserve(struct buffer *b, size_t more)
{
    size_t cap = b->cap ? b->cap : BUFFER_MIN;
    while (cap < b->len + more) {
        cap = GROW(cap);
    }
    byte *data = realloc(b->data, cap);
    if (!data) {
        return NO_MEMORY;
    }
    b->data = data;
    b->cap = cap;
    stats.grown++;
    return OK;
}

int buffer_init(struct buffer *b)
{
    memset(b, 0, sizeof *b);
    return reserve(b, BUFFER_MIN) == OK ? 0 : -1;
}

enum status buffer_append(struct buffer *b, const byte *bytes, size_t n)
{
    if (reserve(b, n) != OK) {
        return NO_MEMORY;
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
    return OK;
}

void buffer_free(struct buffer *b)
{
    free(b->data);
    stats.freed++;
}
