package org.mpcache.common.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.service.AbstractService;
import org.apache.hadoop.util.ExitUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Starting a daemon from {@code main}, with the JVM's exit turned into an exception. */
class DaemonsTest {
  private final AtomicBoolean initialized = new AtomicBoolean();

  /** A daemon that refuses to be initialized, so that a run that reaches init ends at once. */
  private final AbstractService daemon = new AbstractService("test-daemon") {
    @Override
    protected void serviceInit(Configuration conf) throws Exception {
      initialized.set(true);
      throw new IllegalStateException("initialized");
    }
  };

  @BeforeEach
  void noExit() {
    ExitUtil.disableSystemExit();
    ExitUtil.resetFirstExitException();
  }

  @AfterEach
  void reset() {
    ExitUtil.resetFirstExitException();
  }

  @Test
  void run_unknownArgument_exitsWithUsageNamingItBeforeStarting() {
    ExitUtil.ExitException e = assertThrows(ExitUtil.ExitException.class, () -> Daemons.run(
        daemon, DaemonsTest.class, new String[] {"-format", "x"}, LoggerFactory.getLogger("t")));
    assertEquals(1, e.getExitCode());
    assertTrue(e.getMessage().contains("'-format'"), e.getMessage());
    assertTrue(e.getMessage().contains("Usage"), e.getMessage());
    assertFalse(initialized.get(), "the daemon was initialized");
  }

  @Test
  void run_noArguments_initializesTheDaemon() {
    ExitUtil.ExitException e = assertThrows(ExitUtil.ExitException.class, () -> Daemons.run(
        daemon, DaemonsTest.class, new String[0], LoggerFactory.getLogger("t")));
    assertEquals(1, e.getExitCode());
    assertTrue(initialized.get());
  }
}
