# Copyright (c) 2026 The Boost.AsioNotify authors
# Distributed under the Boost Software License, Version 1.0.
#
# The compiled library, as both CMake builds declare it (this repository on its own, and
# libs/asio_notify of a Boost superproject): its sources, one port and one system-call unit
# per OS, and what every user of it needs. The caller adds the include directories and the
# Boost dependencies, which differ between the two.
if(WIN32)
  set(asio_notify_os_sources
    src/drivers/win/io_context_port_driver.cpp
    src/drivers/win/socket_wait.cpp
    src/port/win/afd.cpp
    src/port/win/afd_engine.cpp
    src/port/win/afd_port.cpp
    src/port/win/afd_port_site.cpp
    src/port/win/backend_choice.cpp
    src/port/win/completion_port.cpp
    src/port/win/psn_port.cpp
    src/port/win/system.cpp
    src/socket_ops/socket_ops_win.cpp)
else()
  set(asio_notify_os_sources src/port/epoll/port_epoll.cpp src/socket_ops/socket_ops_posix.cpp)
endif()

# By layer, as doc/design.md draws them: the reactor, the drivers, the port.
add_library(boost_asio_notify
  src/reactor/reactor.cpp
  src/reactor/reactor_core.cpp
  src/drivers/driver_factory.cpp
  src/drivers/inline_drivers.cpp
  src/drivers/shared_batch.cpp
  src/drivers/thread_driver.cpp
  src/port/port_adversary.cpp
  src/port/port_common.cpp
  ${asio_notify_os_sources})
add_library(Boost::asio_notify ALIAS boost_asio_notify)
target_compile_features(boost_asio_notify PUBLIC cxx_std_17)
target_compile_definitions(boost_asio_notify PRIVATE BOOST_ASIO_NOTIFY_SOURCE
  PUBLIC $<$<BOOL:${BUILD_SHARED_LIBS}>:BOOST_ASIO_NOTIFY_SHARED>)
if(WIN32)
  target_link_libraries(boost_asio_notify PUBLIC ws2_32 mswsock)
  target_compile_definitions(boost_asio_notify PUBLIC _WIN32_WINNT=0x0A00)
endif()
