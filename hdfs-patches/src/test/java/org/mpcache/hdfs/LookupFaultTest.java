package org.mpcache.hdfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.mpcache.common.proto.ClientSlaveProtos.LookupResponseProto;
import org.mpcache.common.protocolPB.ClientSlaveProtocolPB;

/**
 * A lookup that fails: only a fault of the slave itself (it cannot be reached) leaves the slave
 * alone for the whole client; an error the slave answered with (a refused request, an expired
 * token) falls back to HDFS for the block and no more.
 */
class LookupFaultTest {
  private static final int BLOCK = 64 * 1024;

  private final ClientSlaveProtocolPB proxy = mock(ClientSlaveProtocolPB.class);
  private final SlaveDirectory directory = mock(SlaveDirectory.class);
  private final BackgroundCalls background = new BackgroundCalls("test-background", 1, 1_000);
  private final byte[] content = new byte[2 * BLOCK];

  LookupFaultTest() {
    for (int i = 0; i < content.length; i++) {
      content[i] = (byte) (i * 31);
    }
    when(directory.choose(any())).thenReturn(Optional.of(new SlaveDirectory.Slave("s1", proxy,
        false, "127.0.0.1", 0, new HashMap<>())));
  }

  @AfterEach
  void stop() {
    background.close();
  }

  /** A stream over {@code blocks} blocks of {@link #content}, HDFS mocked. */
  private CachingInputStream open(int blocks, long missLookupIntervalMs) throws Exception {
    DFSInputStream hdfs = mock(DFSInputStream.class);
    long[] pos = {0};
    when(hdfs.getFileLength()).thenReturn((long) blocks * BLOCK);
    when(hdfs.getPos()).thenAnswer(inv -> pos[0]);
    doAnswer(inv -> pos[0] = inv.getArgument(0)).when(hdfs).seek(anyLong());
    when(hdfs.read(any(byte[].class), anyInt(), anyInt())).thenAnswer(inv -> {
      byte[] b = inv.getArgument(0);
      int len = (int) Math.min(inv.<Integer>getArgument(2), blocks * BLOCK - pos[0]);
      System.arraycopy(content, (int) pos[0], b, inv.getArgument(1), len);
      pos[0] += len;
      return len;
    });
    Configuration conf = new Configuration(false);
    conf.setBoolean(ClientConfigKeys.DOMAIN_SOCKET_ENABLED_KEY, false);
    conf.setBoolean(ClientConfigKeys.STREAM_ENABLED_KEY, false);
    conf.setLong(ClientConfigKeys.MISS_LOOKUP_INTERVAL_MS_KEY, missLookupIntervalMs);
    ClientContext ctx = new ClientContext(new ClientConf(conf), directory, background,
        background, null);
    List<LocatedBlock> located = new ArrayList<>();
    for (int i = 0; i < blocks; i++) {
      LocatedBlock b = new LocatedBlock(new ExtendedBlock("BP-1", i + 1, BLOCK, 1),
          new DatanodeInfo[0]);
      b.setStartOffset((long) i * BLOCK);
      located.add(b);
    }
    return new CachingInputStream(hdfs, "hdfs://nn/f", located, blocks, ctx,
        new Dataset("hdfs://nn/f", blocks), System::nanoTime);
  }

  /** Reads the file's {@code blocks} blocks, then waits for the calls made off the reader. */
  private byte[] readAll(int blocks, long missLookupIntervalMs) throws Exception {
    byte[] got = new byte[blocks * BLOCK];
    try (CachingInputStream in = open(blocks, missLookupIntervalMs)) {
      for (int at = 0; at < got.length; at += BLOCK) {
        assertEquals(BLOCK, in.read(got, at, BLOCK));
      }
    }
    background.close();
    return got;
  }

  private static ServiceException refused() {
    return new ServiceException(new RemoteException(InvalidToken.class.getName(),
        "Block token has expired"));
  }

  private static LookupResponseProto miss() {
    return LookupResponseProto.newBuilder().setStatus(LookupResponseProto.Status.MISS).build();
  }

  @Test
  void read_lookupRefusedBySlave_fallsBackWithoutLeavingTheSlaveAlone() throws Exception {
    when(proxy.lookup(any(), any())).thenThrow(refused());
    long errors = ClientCounters.get().fallbacks(FallbackCause.SLAVE_ERROR);
    assertArrayEquals(Arrays.copyOf(content, BLOCK), readAll(1, 0));
    verify(directory, never()).markFaulty(anyString());
    assertEquals(errors + 1, ClientCounters.get().fallbacks(FallbackCause.SLAVE_ERROR));
  }

  @Test
  void read_slaveUnreachable_leavesTheSlaveAlone() throws Exception {
    when(proxy.lookup(any(), any())).thenThrow(new ServiceException(
        new ConnectException("Connection refused")));
    assertArrayEquals(Arrays.copyOf(content, BLOCK), readAll(1, 0));
    verify(directory).markFaulty("s1");
  }

  @Test
  void read_backgroundLookupRefused_leavesTheSlaveAsItIs() throws Exception {
    // After a miss the next block's lookup goes out off the reader's thread.
    when(proxy.lookup(any(), any())).thenReturn(miss()).thenThrow(refused());
    assertArrayEquals(content, readAll(2, 0));
    verify(directory, never()).markFaulty(anyString());
  }

  @Test
  void read_deferredLookupRefused_leavesTheSlaveAsItIs() throws Exception {
    // The second missed block is entered within the interval: close looks it up.
    when(proxy.lookup(any(), any())).thenReturn(miss()).thenThrow(refused());
    assertArrayEquals(content, readAll(2, 60_000));
    verify(directory, never()).markFaulty(anyString());
  }
}
