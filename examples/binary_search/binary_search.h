// Batched lookups in a sorted table: the top copies the table on chip once per call, then
// answers every query with a binary search.
#ifndef BINARY_SEARCH_H
#define BINARY_SEARCH_H

// Entries in the sorted lookup table (strictly ascending keys).
const int BS_TABLE_SIZE = 64;
// Largest number of queries per call.
const int BS_MAX_QUERIES = 128;

// For each of the first `n_queries` keys, writes to `results` the index of that key in `table`,
// or -1 when the table does not hold it. Returns how many keys were found. `n_queries` is
// clamped to BS_MAX_QUERIES.
int bsearch_top(const int table[BS_TABLE_SIZE], const int queries[BS_MAX_QUERIES],
                int results[BS_MAX_QUERIES], int n_queries);

#endif
