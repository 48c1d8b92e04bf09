//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where the reactor's socket states live, and the completion keys that name them: a slot and
// its generation (as mio's tokens name slab entries), never an address the program can free.
// Why: doc/design.md, "Keys that cannot dangle".
#ifndef BOOST_ASIO_NOTIFY_SRC_SOCKET_STATE_TABLE_HPP
#define BOOST_ASIO_NOTIFY_SRC_SOCKET_STATE_TABLE_HPP

#include "socket_state.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace boost {
namespace asio_notify {
namespace detail {

/* Slots are allocated in chunks of doubling size (64, 128, 256, ...) that are never moved
   or freed while the table lives, so a key taken from any packet, however late, leads to a
   live `socket_state`; whether that state is still the key's socket is then decided by its
   generation, under its mutex. A closed socket's slot is reused at once: its generation
   changes, so the packets still on their way for it find a stranger and are dropped. */
class socket_state_table
{
public:
  /// Bits of a key that hold the slot; the others hold the generation (its low bits on a
  /// 32-bit system: 4096 reuses of one slot before a key repeats).
  static constexpr unsigned slot_bits = sizeof(void*) >= 8 ? 32 : 20;

  socket_state_table() = default;
  socket_state_table(const socket_state_table&) = delete;
  socket_state_table& operator=(const socket_state_table&) = delete;

  ~socket_state_table()
  {
    for (auto& c : chunks_)
      delete[] c.load(std::memory_order_relaxed);
  }

  /// A slot for socket `s`, with a new generation and every field as new. Throws
  /// `std::bad_alloc` when a chunk is needed and cannot be had (then nothing changed).
  socket_state* acquire(native_socket_type s)
  {
    socket_state* state = pop_free();
    std::lock_guard<std::mutex> lock(state->mutex); // a late packet may be looking at it
    reset(*state, s);
    return state;
  }

  /// Give back the slot of a closed socket: keys of its generation name nobody from now on.
  void release(socket_state& state) noexcept
  {
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.closed = true;
      state.generation = next_generation(state.generation);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    state.next_free = free_;
    free_ = &state;
  }

  /// The key that names `state`'s current socket (call with its mutex held).
  static void* key_of(const socket_state& state) noexcept
  {
    const std::uintptr_t generation = std::uintptr_t(state.generation) & generation_mask;
    return reinterpret_cast<void*>((generation << slot_bits) | state.slot);
  }

  /// The slot a key names, or null for a key no slot of this table has; whether it is still
  /// that socket is `names`' to say.
  socket_state* find(const void* key) const noexcept
  {
    const std::uintptr_t slot = reinterpret_cast<std::uintptr_t>(key) & slot_mask;
    const std::size_t c = chunk_of(slot);
    if (c >= max_chunks)
      return nullptr;
    socket_state* chunk = chunks_[c].load(std::memory_order_acquire);
    return chunk ? &chunk[slot - first_slot(c)] : nullptr;
  }

  /// Whether `key` names `state`'s current socket (call with its mutex held).
  static bool names(const socket_state& state, const void* key) noexcept
  {
    return state.generation != 0 && key_of(state) == key;
  }

  /// Calls `f(state)` for every slot, used or free.
  template <class F>
  void for_each(F f)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t c = 0; c < max_chunks; ++c)
      if (socket_state* chunk = chunks_[c].load(std::memory_order_relaxed))
        for (std::size_t i = 0; i < chunk_size(c); ++i)
          f(chunk[i]);
  }

  /// Slots allocated (sockets open now and free slots kept for reuse).
  std::size_t allocated() const noexcept { return allocated_.load(std::memory_order_relaxed); }

private:
  static constexpr std::uintptr_t slot_mask = (std::uintptr_t(1) << slot_bits) - 1;
  static constexpr std::uintptr_t generation_mask =
      (std::uintptr_t(1) << (sizeof(void*) * 8 - slot_bits)) - 1;
  static constexpr std::size_t first_chunk = 64;
  static constexpr std::size_t max_chunks = slot_bits - 6; // up to 2^slot_bits slots in all

  static std::size_t chunk_size(std::size_t c) noexcept { return first_chunk << c; }
  static std::size_t first_slot(std::size_t c) noexcept { return chunk_size(c) - first_chunk; }

  // Chunk c holds slots [64 * (2^c - 1), 64 * (2^(c+1) - 1)).
  static std::size_t chunk_of(std::uintptr_t slot) noexcept
  {
    const std::uintptr_t j = slot / first_chunk + 1;
#if defined(__GNUC__) || defined(__clang__)
    return std::size_t(sizeof(unsigned long long) * 8 - 1 - __builtin_clzll(j));
#else
    std::size_t c = 0;
    while (j >> (c + 1))
      ++c;
    return c;
#endif
  }

  // Never 0 (a slot never used), and never a value whose key bits are 0 (a null key).
  static std::uint32_t next_generation(std::uint32_t g) noexcept
  {
    do
      ++g;
    while ((std::uintptr_t(g) & generation_mask) == 0);
    return g;
  }

  static void reset(socket_state& state, native_socket_type s) noexcept
  {
    state.socket = s;
    state.armed = events::none;
    state.registered = false;
    state.closed = false;
    state.drained_hint = false;
    state.read_drained = false;
    state.hangup_seen = false;
    if (state.generation == 0)
      state.generation = next_generation(0);
  }

  socket_state* pop_free()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!free_)
      grow();
    socket_state* state = free_;
    free_ = state->next_free;
    state->next_free = nullptr;
    return state;
  }

  // With mutex_ held: the next chunk, its slots on the free list in order.
  void grow()
  {
    std::size_t c = 0;
    while (c < max_chunks && chunks_[c].load(std::memory_order_relaxed))
      ++c;
    if (c == max_chunks)
      throw std::bad_alloc();
    std::unique_ptr<socket_state[]> chunk(new socket_state[chunk_size(c)]);
    for (std::size_t i = chunk_size(c); i-- > 0;)
    {
      chunk[i].slot = static_cast<std::uint32_t>(first_slot(c) + i);
      chunk[i].next_free = free_;
      free_ = &chunk[i];
    }
    allocated_.fetch_add(chunk_size(c), std::memory_order_relaxed);
    chunks_[c].store(chunk.release(), std::memory_order_release);
  }

  std::atomic<socket_state*> chunks_[max_chunks] = {};
  std::mutex mutex_; // guards the free list and growth
  socket_state* free_ = nullptr;
  std::atomic<std::size_t> allocated_{0};
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
