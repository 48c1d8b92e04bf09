# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The compiled library, as both CMake builds declare it (this repository on its own, and
# libs/asio_notify of a Boost superproject): its sources, one port and one system-call unit
# per OS, and what every user of it needs. The caller adds the include directories and the
# Boost dependencies, which differ between the two.
if(WIN32)
  set(asio_notify_backend_sources
    src/win/afd.cpp
    src/win/afd_engine.cpp
    src/win/afd_port.cpp
    src/win/afd_port_site.cpp
    src/win/backend_choice.cpp
    src/win/completion_port.cpp
    src/win/io_context_port_driver.cpp
    src/win/psn_port.cpp
    src/win/socket_wait.cpp
    src/win/system.cpp
    src/socket_ops_win.cpp)
else()
  set(asio_notify_backend_sources src/port_epoll.cpp src/socket_ops_posix.cpp)
endif()

add_library(boost_asio_notify
  src/port_adversary.cpp
  src/port_common.cpp
  src/driver_factory.cpp
  src/inline_drivers.cpp
  src/reactor.cpp
  src/reactor_core.cpp
  src/shared_batch.cpp
  src/thread_driver.cpp
  ${asio_notify_backend_sources})
add_library(Boost::asio_notify ALIAS boost_asio_notify)
target_compile_features(boost_asio_notify PUBLIC cxx_std_17)
target_compile_definitions(boost_asio_notify PRIVATE BOOST_ASIO_NOTIFY_SOURCE
  PUBLIC $<$<BOOL:${BUILD_SHARED_LIBS}>:BOOST_ASIO_NOTIFY_SHARED>)
if(WIN32)
  target_link_libraries(boost_asio_notify PUBLIC ws2_32 mswsock)
  target_compile_definitions(boost_asio_notify PUBLIC _WIN32_WINNT=0x0A00)
endif()
