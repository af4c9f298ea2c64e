package org.mpcache.common.domain;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import java.io.IOException;
import org.apache.hadoop.thirdparty.protobuf.MessageLite;
import org.apache.hadoop.thirdparty.protobuf.Parser;

/**
 * The framing of the descriptor protocol on a slave's Unix domain socket, and of the block
 * stream's requests and answer headers on its TCP stream port (the messages and their order are
 * described in {@code ClientSlaveProtocol.proto}): each protobuf message is preceded by its length
 * as a 4-byte big-endian int. Protobuf's own Netty codecs are not used because the
 * messages are compiled against Hadoop's relocated protobuf.
 *
 * <p>Stateless and thread-safe; each decoder it makes belongs to one channel.
 */
public final class DescriptorFrames {
  /** The largest request a slave reads: a block key and a block token. */
  public static final int MAX_REQUEST_BYTES = 64 * 1024;
  /** The largest answer a client reads: a block's checksums, 4 bytes per chunk. */
  public static final int MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

  private DescriptorFrames() {
  }

  /** A decoder handing on each whole frame's message bytes, refusing frames over {@code max}. */
  public static LengthFieldBasedFrameDecoder decoder(int max) {
    return new LengthFieldBasedFrameDecoder(max, 0, 4, 0, 4);
  }

  /**
   * An empty frame: what a granted client sends once it is ready to receive the descriptor, and
   * what the slave sends after the descriptor when it removes the block (the revocation: the
   * client hands the file out to no new reader).
   */
  public static ByteBuf ready() {
    return Unpooled.buffer(4).writeInt(0);
  }

  /** One framed message. */
  public static ByteBuf encode(MessageLite m) {
    byte[] body = m.toByteArray();
    ByteBuf b = Unpooled.buffer(4 + body.length);
    b.writeInt(body.length);
    b.writeBytes(body);
    return b;
  }

  /**
   * Parses one frame's message and releases the frame.
   *
   * @throws IOException naming {@code what} when the bytes are not such a message
   */
  public static <T> T decode(ByteBuf frame, Parser<T> parser, String what) throws IOException {
    try {
      // Parsed in place: a stream over the frame would cost a 4 KiB buffer per message.
      return parser.parseFrom(frame.nioBuffer());
    } catch (IOException | RuntimeException e) {
      throw new IOException("Malformed " + what + ": " + e.getMessage(), e);
    } finally {
      frame.release();
    }
  }
}
