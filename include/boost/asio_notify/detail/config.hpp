//
// Copyright (c) 2026 The Boost.AsioNotify authors
//
// Distributed under the Boost Software License, Version 1.0. (See accompanying
// file LICENSE_1_0.txt or copy at http://www.boost.org/LICENSE_1_0.txt)
//
#ifndef BOOST_ASIO_NOTIFY_DETAIL_CONFIG_HPP
#define BOOST_ASIO_NOTIFY_DETAIL_CONFIG_HPP

// Symbol visibility for the compiled part of the library.
#if defined(BOOST_ASIO_NOTIFY_SHARED) && defined(_WIN32)
#if defined(BOOST_ASIO_NOTIFY_SOURCE)
#define BOOST_ASIO_NOTIFY_DECL __declspec(dllexport)
#else
#define BOOST_ASIO_NOTIFY_DECL __declspec(dllimport)
#endif
#elif defined(BOOST_ASIO_NOTIFY_SHARED)
#define BOOST_ASIO_NOTIFY_DECL __attribute__((visibility("default")))
#else
#define BOOST_ASIO_NOTIFY_DECL
#endif

#endif
