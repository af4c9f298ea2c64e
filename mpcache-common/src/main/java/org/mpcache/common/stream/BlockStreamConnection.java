package org.mpcache.common.stream;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.mpcache.common.domain.DescriptorFrames;
import org.mpcache.common.proto.ClientSlaveProtos.StreamRequestProto;
import org.mpcache.common.proto.ClientSlaveProtos.StreamResponseProto;
import org.mpcache.common.proto.MpCacheProtos.BlockKeyProto;

/**
 * The client side of one block stream: a TCP connection to a slave's block stream server that
 * carries one cached block's bytes with their stored CRC32Cs (the exchange is described in
 * {@code ClientSlaveProtocol.proto}, "Block streams"). The caller may send several requests
 * before it receives the first answer (read-ahead); answers come in request order.
 *
 * <p>Nothing from the socket is trusted: every answer must describe the range that was asked for
 * (chunk-aligned, inside the block, as many checksums as chunks, within the frame size limit),
 * and every chunk must match its checksum before any of its bytes are handed on. A slave that
 * breaks the protocol gets an {@link IOException}; a chunk that does not match, a
 * {@link ChecksumException}; a refusal, a {@link RefusedException}. After any of them the
 * connection is unusable; the caller closes it.
 *
 * <p>The stream is not protected: it is used only where {@link #allowed} says the operator asked
 * for no more than authentication of RPC (see docs/security.md).
 *
 * <p>Not thread-safe: one reader at a time; {@link #close} may be called from any thread and
 * makes a blocked {@link #receive} fail.
 */
public final class BlockStreamConnection implements Closeable {

  /** The slave answered without bytes (not cached, not authorized, or could not read). */
  public static final class RefusedException extends IOException {
    private static final long serialVersionUID = 1L;
    private final StreamResponseProto.Status status;

    RefusedException(StreamResponseProto.Status status, String message) {
      super(message);
      this.status = status;
    }

    public StreamResponseProto.Status status() {
      return status;
    }
  }

  /**
   * A verified answer: {@code length} bytes of the block from {@code offset} (chunk-aligned, at
   * or before the offset asked for) at the start of {@code data}, which the connection reuses:
   * valid until its next {@link #receive}.
   */
  public record Answer(long offset, int length, byte[] data) {
    /** Whether it holds the byte at block offset {@code blockOff}. */
    public boolean covers(long blockOff) {
      return blockOff >= offset && blockOff < offset + length;
    }

    /** The block offset after its last byte. */
    public long end() {
      return offset + length;
    }
  }

  /** A range asked for and not yet received. */
  private record Pending(long offset, int length) {
  }

  /** The most bytes one answer may carry, whatever the slave says its chunks are. */
  static final int MAX_ANSWER_BYTES = 128 * 1024 * 1024;

  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final BlockKeyProto block;
  private final String token;
  private final long blockLength;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  private final CRC32C crc = new CRC32C();
  private byte[] buffer = new byte[0];
  private long pendingBytes;
  private boolean broken;

  private BlockStreamConnection(Socket socket, BlockKeyProto block, String token,
      long blockLength) throws IOException {
    this.socket = socket;
    this.in = new DataInputStream(socket.getInputStream());
    this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    this.block = block;
    this.token = token;
    this.blockLength = blockLength;
  }

  /**
   * Whether block bytes may go over the stream with this configuration: only with simple
   * authentication and {@code hadoop.rpc.protection=authentication}. With Kerberos, or with
   * integrity or privacy asked of RPC, the stream, which neither authenticates its caller by
   * SASL nor signs or encrypts, is not used and block bytes go through the protected RPC.
   */
  public static boolean allowed(Configuration conf) {
    if (SecurityUtil.getAuthenticationMethod(conf) != AuthenticationMethod.SIMPLE) {
      return false;
    }
    for (String qop : conf.getTrimmedStrings(
        CommonConfigurationKeysPublic.HADOOP_RPC_PROTECTION, "authentication")) {
      if (!qop.equalsIgnoreCase("authentication")) {
        return false;
      }
    }
    return true;
  }

  /**
   * Connects to the stream server at {@code address} for block {@code block}, with TCP
   * keepalive on.
   *
   * @param token the block's access token, URL-safe; empty when HDFS issued none
   * @param blockLength the block's length as the NameNode gave it
   * @param timeoutMs the limit of the connect and of each later wait, until {@link #timeout}
   */
  public static BlockStreamConnection open(InetSocketAddress address, BlockKeyProto block,
      String token, long blockLength, int timeoutMs) throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      // As Hadoop's RPC client does: a slave whose host vanished while the reader holds the
      // stream between reads is found by the kernel, and the next read fails at once.
      s.setKeepAlive(true);
      s.setReceiveBufferSize(1 << 20);
      s.connect(address, Math.max(1, timeoutMs));
      s.setSoTimeout(Math.max(1, timeoutMs));
      return new BlockStreamConnection(s, block, token, blockLength);
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** Sets the limit of each wait for the slave from now on. */
  public void timeout(int timeoutMs) throws IOException {
    socket.setSoTimeout(Math.max(1, timeoutMs));
  }

  /** Bytes asked for and not yet received. */
  public long pendingBytes() {
    return pendingBytes;
  }

  /** Whether an answer is due. */
  public boolean hasPending() {
    return !pending.isEmpty();
  }

  /** Whether the next answer due was asked for a range holding block offset {@code blockOff}. */
  public boolean nextCovers(long blockOff) {
    Pending p = pending.peek();
    return p != null && blockOff >= p.offset() && blockOff < p.offset() + p.length();
  }

  /**
   * Asks for {@code length} bytes from {@code offset} inside the block; the slave widens the
   * range to whole chunks (and may shorten it to its largest answer). The answer comes after
   * those of the earlier requests.
   */
  public void request(long offset, int length) throws IOException {
    checkUsable();
    if (offset < 0 || offset >= blockLength || length <= 0) {
      throw new IllegalArgumentException("Request of " + length + " bytes at " + offset
          + " outside the block's " + blockLength);
    }
    int n = (int) Math.min(length, blockLength - offset);
    byte[] body = StreamRequestProto.newBuilder().setBlock(block).setBlockToken(token)
        .setOffset(offset).setLength(n).build().toByteArray();
    try {
      out.writeInt(body.length);
      out.write(body);
      out.flush();
    } catch (IOException e) {
      broken = true;
      throw e;
    }
    pending.add(new Pending(offset, n));
    pendingBytes += n;
  }

  /**
   * Receives the next answer and verifies every chunk of it.
   *
   * @throws RefusedException when the slave answered without bytes
   * @throws ChecksumException when a chunk does not match its checksum
   * @throws IOException when the slave broke the protocol (an answer that does not start at the
   *     chunk holding the offset asked for, runs past the block, is far longer than asked, or
   *     has another number of checksums than chunks), closed the connection, or did not answer
   *     in time
   */
  public Answer receive() throws IOException {
    checkUsable();
    Pending p = pending.peek();
    if (p == null) {
      throw new IllegalStateException("No request is waiting for an answer");
    }
    broken = true;
    StreamResponseProto r = readHeader();
    if (r.getStatus() != StreamResponseProto.Status.GRANTED) {
      throw new RefusedException(r.getStatus(), "the slave answered " + r.getStatus() + ": "
          + r.getMessage());
    }
    long chunk = Integer.toUnsignedLong(r.getChunkSize());
    long start = r.getOffset();
    long n = Integer.toUnsignedLong(r.getLength());
    long end = start + n;
    if (chunk == 0 || start < 0 || start % chunk != 0 || start > p.offset()
        || p.offset() - start >= chunk || n == 0 || end > blockLength
        || (end < blockLength && end % chunk != 0) || n > p.length() + 2 * chunk
        || n > MAX_ANSWER_BYTES) {
      throw new IOException("the slave answered " + n + " bytes at " + start
          + " in chunks of " + chunk + " to a request of " + p.length() + " at " + p.offset()
          + " of a block of " + blockLength);
    }
    long chunks = (n + chunk - 1) / chunk;
    if (r.getChecksumsCount() != chunks) {
      throw new IOException("the slave sent " + r.getChecksumsCount() + " checksums for "
          + chunks + " chunks");
    }
    if (buffer.length < n) {
      buffer = new byte[(int) n];
    }
    in.readFully(buffer, 0, (int) n);
    for (int i = 0, from = 0; from < n; i++, from += (int) chunk) {
      crc.reset();
      crc.update(buffer, from, (int) Math.min(chunk, n - from));
      if ((int) crc.getValue() != r.getChecksums(i)) {
        throw new ChecksumException("checksum mismatch at offset " + (start + from)
            + " of the block streamed from " + socket.getRemoteSocketAddress(), start + from);
      }
    }
    pending.remove();
    pendingBytes -= p.length();
    broken = false;
    return new Answer(start, (int) n, buffer);
  }

  private StreamResponseProto readHeader() throws IOException {
    int size;
    try {
      size = in.readInt();
    } catch (EOFException e) {
      throw new EOFException("the slave closed the stream");
    } catch (SocketTimeoutException e) {
      throw new SocketTimeoutException("no answer from " + socket.getRemoteSocketAddress()
          + " in " + socket.getSoTimeout() + " ms");
    }
    if (size < 0 || size > DescriptorFrames.MAX_RESPONSE_BYTES) {
      throw new IOException("the slave sent a frame of " + size + " bytes; at most "
          + DescriptorFrames.MAX_RESPONSE_BYTES + " are read");
    }
    byte[] body = new byte[size];
    in.readFully(body);
    try {
      return StreamResponseProto.parseFrom(body);
    } catch (IOException | RuntimeException e) {
      throw new IOException("Malformed stream answer: " + e.getMessage(), e);
    }
  }

  private void checkUsable() throws IOException {
    if (broken || socket.isClosed()) {
      throw new IOException("the stream failed before or was closed");
    }
  }

  /** Closes the connection; the slave ends its lease of the block. Idempotent. */
  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // Nothing was written that the slave needs.
    }
  }
}
