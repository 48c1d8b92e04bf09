//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
// Where the reactor's socket states live, and the completion keys that name them: a slot and
// its generation (as mio's tokens name slab entries), never an address the program can free.
// Why: doc/design.md, "Keys that cannot dangle".
#ifndef BOOST_ASIO_NOTIFY_SRC_REACTOR_DESCRIPTOR_STATE_TABLE_HPP
#define BOOST_ASIO_NOTIFY_SRC_REACTOR_DESCRIPTOR_STATE_TABLE_HPP

#include "descriptor_state.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iterator>
#include <memory>
#include <mutex>
#include <new>

namespace boost {
namespace asio_notify {
namespace detail {

/// Slots in chunks never moved or freed while the table lives, each constructed when first
/// used; a key names a slot and its generation. Why: doc/port_contract.md, "Keys that
/// cannot dangle".
class descriptor_state_table
{
public:
  /// Bits of a key that hold the slot; the others hold the generation (its low bits on a
  /// 32-bit system: 4096 reuses of one slot before a key repeats).
  static constexpr unsigned slot_bits = sizeof(void*) >= 8 ? 32 : 20;

  descriptor_state_table() = default;
  descriptor_state_table(const descriptor_state_table&) = delete;
  descriptor_state_table& operator=(const descriptor_state_table&) = delete;

  ~descriptor_state_table()
  {
    for_each([](descriptor_state& state) { state.~descriptor_state(); });
    for (auto& c : chunks_)
      ::operator delete(c.load(std::memory_order_relaxed));
  }

  /// A slot for socket `s`, with a new generation and every field as new. Throws
  /// `std::bad_alloc` when a chunk is needed and cannot be had (then nothing changed).
  descriptor_state* acquire(native_socket_type s)
  {
    descriptor_state* state = pop_free();
    std::lock_guard<std::mutex> lock(state->mutex); // a late packet may be looking at it
    reset(*state, s);
    return state;
  }

  /// Give back the slot of a closed socket: keys of its generation name nobody from now on.
  void release(descriptor_state& state) noexcept
  {
    {
      std::lock_guard<std::mutex> lock(state.mutex);
      state.closed = true;
      state.generation = next_generation(state.generation);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    state.next_free = free_ ? free_->slot + 1 : 0;
    free_ = &state;
  }

  /// The key that names `state`'s current socket (call with its mutex held).
  static void* key_of(const descriptor_state& state) noexcept
  {
    const std::uintptr_t generation = std::uintptr_t(state.generation) & generation_mask;
    return reinterpret_cast<void*>((generation << slot_bits) | state.slot);
  }

  /// The slot a key names, or null for a key no slot of this table has; whether it is still
  /// that socket is `names`' to say.
  descriptor_state* find(const void* key) const noexcept
  {
    const std::uintptr_t slot = reinterpret_cast<std::uintptr_t>(key) & slot_mask;
    const std::size_t c = chunk_of(slot);
    if (c >= max_chunks || slot >= allocated_.load(std::memory_order_acquire))
      return nullptr;
    descriptor_state* chunk = chunks_[c].load(std::memory_order_acquire);
    return chunk ? &chunk[slot - first_slot(c)] : nullptr;
  }

  /// Whether `key` names `state`'s current socket (call with its mutex held).
  static bool names(const descriptor_state& state, const void* key) noexcept
  {
    return state.generation != 0 && key_of(state) == key;
  }

  /// Calls `f(state)` for every slot constructed, used or free.
  template <class F>
  void for_each(F f)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::size_t constructed = allocated_.load(std::memory_order_relaxed);
    for (std::size_t slot = 0; slot < constructed; ++slot)
      f(at(slot));
  }

  /// Slots constructed (sockets open now and free slots kept for reuse): the most sockets
  /// that were open at once.
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

  static void reset(descriptor_state& state, native_socket_type s) noexcept
  {
    state.socket = s;
    state.armed = events::none;
    state.unready = events::none;
    state.registered = false;
    state.closed = false;
    state.drained_hint = false;
    state.read_drained = false;
    state.hangup_seen = false;
    state.channel = nullptr; // close_channel left none
    std::fill(std::begin(state.in_flight), std::end(state.in_flight), false);
    state.channel_refused = false;
    if (state.generation == 0)
      state.generation = next_generation(0);
  }

  // A constructed slot (below allocated_).
  descriptor_state& at(std::size_t slot) const noexcept
  {
    const std::size_t c = chunk_of(slot);
    return chunks_[c].load(std::memory_order_acquire)[slot - first_slot(c)];
  }

  // A free slot, else the next one constructed (in a new chunk when the last is full).
  descriptor_state* pop_free()
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (descriptor_state* state = free_)
    {
      free_ = state->next_free ? &at(state->next_free - 1) : nullptr;
      state->next_free = 0;
      return state;
    }
    const std::size_t slot = allocated_.load(std::memory_order_relaxed);
    const std::size_t c = chunk_of(slot);
    if (c >= max_chunks)
      throw std::bad_alloc();
    descriptor_state* chunk = chunks_[c].load(std::memory_order_relaxed);
    if (!chunk)
    {
      chunk =
          static_cast<descriptor_state*>(::operator new(chunk_size(c) * sizeof(descriptor_state)));
      chunks_[c].store(chunk, std::memory_order_release);
    }
    descriptor_state* state = ::new (&chunk[slot - first_slot(c)]) descriptor_state;
    state->slot = static_cast<std::uint32_t>(slot);
    allocated_.store(slot + 1, std::memory_order_release); // find() may now name it
    return state;
  }

  std::atomic<descriptor_state*> chunks_[max_chunks] = {};
  std::mutex mutex_; // guards the free list and growth
  descriptor_state* free_ = nullptr;
  std::atomic<std::size_t> allocated_{0}; // slots constructed: [0, allocated_)
};

} // namespace detail
} // namespace asio_notify
} // namespace boost

#endif
