package org.mpcache.common.security;

import java.io.File;
import java.io.IOException;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.minikdc.MiniKdc;

/**
 * An embedded Kerberos KDC for tests of Kerberized daemons: a {@link MiniKdc} in a fresh
 * directory, and one keytab holding every principal the test names. Not thread-safe; one per test
 * class.
 */
public final class TestKdc implements AutoCloseable {
  private final MiniKdc kdc;
  private final File keytab;

  private TestKdc(MiniKdc kdc, File keytab) {
    this.kdc = kdc;
    this.keytab = keytab;
  }

  /**
   * Starts a KDC under {@code base} (emptied first) with {@code principals} (e.g.
   * {@code mpcache/localhost}, {@code alice}) in one keytab.
   */
  public static TestKdc start(File base, String... principals) throws Exception {
    FileUtil.fullyDelete(base);
    File dir = new File(base, "kdc");
    if (!dir.mkdirs()) {
      throw new IOException("Cannot create " + dir);
    }
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), dir);
    kdc.start();
    File keytab = new File(base, "test.keytab");
    kdc.createPrincipal(keytab, principals);
    return new TestKdc(kdc, keytab);
  }

  public String realm() {
    return kdc.getRealm();
  }

  /** The keytab holding every principal {@link #start} was given. */
  public File keytab() {
    return keytab;
  }

  /** {@code name@REALM}. */
  public String principal(String name) {
    return name + "@" + realm();
  }

  @Override
  public void close() {
    kdc.stop();
  }
}
