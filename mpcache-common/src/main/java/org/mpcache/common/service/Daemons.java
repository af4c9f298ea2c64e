package org.mpcache.common.service;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.hadoop.service.Service;
import org.apache.hadoop.util.ExitUtil;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.util.StringUtils;
import org.mpcache.common.MpCacheConfiguration;
import org.slf4j.Logger;

/**
 * What mpCache's daemons share: starting one from {@code main} with the site configuration and a
 * shutdown hook, and the named daemon threads their periodic work runs on. Stateless.
 */
public final class Daemons {

  private Daemons() {
  }

  /**
   * Runs a daemon until it stops: logs the startup banner, initializes it from
   * {@code mpcache-site.xml}, starts it, and exits with status 1 if that fails. A daemon takes no
   * arguments: any argument is refused, named with the usage on stderr, with status 1 before
   * anything starts, so that a mistyped option is never silently ignored.
   */
  public static void run(Service daemon, Class<?> mainClass, String[] args, Logger log) {
    if (args.length > 0) {
      String message = "Unknown argument '" + args[0] + "': " + mainClass.getSimpleName()
          + " takes no arguments.\nUsage: mpcache [--config confdir] [--daemon start|stop|status]"
          + " master|slave\nIts settings are read from mpcache-site.xml in the configuration"
          + " directory.";
      System.err.println(message);
      ExitUtil.terminate(1, message);
      return;
    }
    StringUtils.startupShutdownMessage(mainClass, args, log);
    try {
      ShutdownHookManager.get().addShutdownHook(daemon::stop, 30);
      daemon.init(MpCacheConfiguration.create());
      daemon.start();
      daemon.waitForServiceToStop(0);
    } catch (Throwable t) {
      log.error("{} failed to start", daemon.getName(), t);
      ExitUtil.terminate(1, t);
    }
  }

  /** A single-threaded scheduler on a daemon thread called {@code name}. */
  public static ScheduledExecutorService scheduler(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }
}
