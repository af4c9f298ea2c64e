package org.mpcache.slave;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A process of its own that floods a TCP server with silent connections, for
 * {@link ConnectionFloodTest}: its sockets count against its own descriptor limit, not the
 * server's. Arguments: host and port. It reads the number of connections to hold from its first
 * line of input, opens them, prints {@code full} once it has held that many at once, and then
 * keeps that many open, opening a new one for each the server closes, until its input ends.
 * Uses the JDK only, so that it runs from the test classes alone. Single-threaded, with a
 * watcher of its input.
 */
public final class ConnectionFlood {
  private ConnectionFlood() {
  }

  public static void main(String[] args) throws IOException {
    InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in,
        StandardCharsets.UTF_8));
    int n = Integer.parseInt(in.readLine().trim());
    Thread watcher = new Thread(() -> {
      try {
        while (in.readLine() != null) {
          // Nothing more is expected: the end of the input ends the flood.
        }
      } catch (IOException e) {
        // The test is gone.
      }
      System.exit(0);
    });
    watcher.setDaemon(true);
    watcher.start();
    ByteBuffer sink = ByteBuffer.allocate(4096);
    int open = 0;
    boolean full = false;
    try (Selector selector = Selector.open()) {
      while (true) {
        while (open < n) {
          SocketChannel ch = SocketChannel.open();
          try {
            ch.socket().connect(server, 1_000);
            ch.configureBlocking(false);
            ch.register(selector, SelectionKey.OP_READ);
            open++;
          } catch (IOException e) {
            ch.close();
            break;
          }
        }
        if (!full && open >= n) {
          full = true;
          System.out.println("full");
          System.out.flush();
        }
        selector.select(50);
        for (SelectionKey k : selector.selectedKeys()) {
          SocketChannel ch = (SocketChannel) k.channel();
          sink.clear();
          int r;
          try {
            r = ch.read(sink);
          } catch (IOException e) {
            r = -1;
          }
          if (r < 0) {
            k.cancel();
            ch.close();
            open--;
          }
        }
        selector.selectedKeys().clear();
      }
    }
  }
}
