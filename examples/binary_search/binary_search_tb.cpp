// Testbench for bsearch_top: checks every result against a linear scan of the table and
// predicts how often each module and loop runs, mirroring the kernel's binary search.
#include <cstdio>

#include "binary_search.h"

namespace {

unsigned tb_rng_state = 2024u;
int tb_rand(int range) {
  tb_rng_state = tb_rng_state * 1664525u + 1013904223u;
  return static_cast<int>((tb_rng_state >> 8) % static_cast<unsigned>(range));
}

// Golden answer: the index of `key` by linear scan, or -1.
int tb_linear_find(const int *table, int key) {
  for (int i = 0; i < BS_TABLE_SIZE; i++)
    if (table[i] == key) return i;
  return -1;
}

// How many times the kernel's search_loop body runs for `key`: the same halving, counted.
long tb_search_steps(const int *table, int key) {
  long steps = 0;
  int lo = 0, hi = BS_TABLE_SIZE - 1;
  while (lo <= hi) {
    steps++;
    int mid = lo + (hi - lo) / 2;
    if (table[mid] == key) break; // the kernel returns here
    if (table[mid] < key) lo = mid + 1;
    else hi = mid - 1;
  }
  return steps;
}

} // namespace

int main() {
  int table[BS_TABLE_SIZE];
  for (int i = 0; i < BS_TABLE_SIZE; i++) table[i] = 5 * i + 3; // 3, 8, 13, ... 318

  // Requested query counts: full, partial, none, and more than the kernel accepts (clamped).
  const int kRuns = 4;
  const int requested[kRuns] = {BS_MAX_QUERIES, 21, 0, 1000};

  int queries[BS_MAX_QUERIES];
  int results[BS_MAX_QUERIES];
  int errors = 0;
  long checked = 0, hits = 0, queries_done = 0, steps = 0;

  for (int run = 0; run < kRuns; run++) {
    for (int q = 0; q < BS_MAX_QUERIES; q++) {
      switch (q % 4) {
      case 0: queries[q] = table[tb_rand(BS_TABLE_SIZE)]; break; // a hit
      case 1: queries[q] = tb_rand(340) - 10; break;             // anything, mostly misses
      case 2: queries[q] = table[(q * 7) % BS_TABLE_SIZE]; break; // a hit, spread evenly
      default: queries[q] = (q & 8) ? -5 - q : 400 + q; break;    // below or above every key
      }
      results[q] = -99;
    }

    int n = requested[run] < BS_MAX_QUERIES ? requested[run] : BS_MAX_QUERIES;
    int found = bsearch_top(table, queries, results, requested[run]);

    int expect_found = 0;
    for (int q = 0; q < BS_MAX_QUERIES; q++) {
      int expect = -99; // results past n are not written
      if (q < n) {
        expect = tb_linear_find(table, queries[q]);
        if (expect >= 0) expect_found++;
        steps += tb_search_steps(table, queries[q]);
      }
      checked++;
      if (results[q] != expect) {
        if (errors < 10)
          std::printf("mismatch: run %d query %d (key %d): got %d, expected %d\n", run, q, queries[q],
                      results[q], expect);
        errors++;
      }
    }
    if (found != expect_found) {
      std::printf("mismatch: run %d: %d keys found, expected %d\n", run, found, expect_found);
      errors++;
    }
    hits += expect_found;
    queries_done += n;
  }

  std::printf("binary_search: %d runs, %ld queries, %ld hits, %ld results checked, %d mismatches\n",
              kRuns, queries_done, hits, checked, errors);
  std::printf("hlsinstr-expect calls bsearch_top %d\n", kRuns);
  std::printf("hlsinstr-expect calls load_table %d\n", kRuns);
  std::printf("hlsinstr-expect execs load_table load_table_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips load_table load_table_loop %d\n", kRuns * BS_TABLE_SIZE);
  std::printf("hlsinstr-expect execs bsearch_top query_loop %d\n", kRuns);
  std::printf("hlsinstr-expect trips bsearch_top query_loop %ld\n", queries_done);
  std::printf("hlsinstr-expect calls search_one %ld\n", queries_done);
  std::printf("hlsinstr-expect execs search_one search_loop %ld\n", queries_done);
  std::printf("hlsinstr-expect trips search_one search_loop %ld\n", steps);
  // m_axi bytes (`--probes ...,maxi`): the table once per call, each accepted query read and its
  // result written once.
  std::printf("hlsinstr-expect read load_table table %ld\n", kRuns * BS_TABLE_SIZE * static_cast<long>(sizeof(int)));
  std::printf("hlsinstr-expect read bsearch_top queries %ld\n", queries_done * static_cast<long>(sizeof(int)));
  std::printf("hlsinstr-expect written bsearch_top results %ld\n", queries_done * static_cast<long>(sizeof(int)));
  return errors;
}
