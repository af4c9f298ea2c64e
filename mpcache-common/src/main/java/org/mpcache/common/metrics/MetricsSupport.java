package org.mpcache.common.metrics;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Locale;
import java.util.function.ObjLongConsumer;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.util.Time;

/**
 * How mpCache's daemons and clients publish Hadoop metrics2 sources (visible in JMX as
 * {@code Hadoop:service=<prefix>,name=<name>}). Several daemons may share a JVM (the embedded
 * cluster, tests), so every source name carries what makes its daemon unique (its RPC port, its
 * slave id): one daemon's registration never replaces another's. Also: metric names from free text,
 * and a proxy that times every call of an RPC protocol implementation. Stateless; thread-safe.
 */
public final class MetricsSupport {

  private MetricsSupport() {
  }

  /**
   * Registers a source under {@code name}, starting the JVM's metrics system with
   * {@code prefix} if nothing started it before (a daemon alone in its JVM).
   */
  public static void register(String prefix, String name, String description,
      MetricsSource source) {
    DefaultMetricsSystem.initialize(prefix);
    DefaultMetricsSystem.instance().register(name, description, source);
  }

  /**
   * Registers a source without starting the metrics system: it shows in JMX when something in
   * the JVM runs one (a task's, a daemon's), and costs nothing otherwise (a shell client).
   */
  public static void registerPassive(String name, String description, MetricsSource source) {
    DefaultMetricsSystem.instance().register(name, description, source);
  }

  /** Removes a source registered by {@link #register}; unknown names are ignored. */
  public static void unregister(String name) {
    DefaultMetricsSystem.instance().unregisterSource(name);
  }

  /**
   * A metric name from free text (a fallback cause, an enum name): letters and digits only,
   * each word capitalized, e.g. {@code "slave unreachable"} and {@code SLAVE_UNREACHABLE} become
   * {@code SlaveUnreachable}.
   */
  public static String name(String text) {
    StringBuilder b = new StringBuilder();
    boolean upper = true;
    for (char c : text.toCharArray()) {
      if (Character.isLetterOrDigit(c)) {
        b.append(upper ? Character.toUpperCase(c) : Character.toLowerCase(c));
        upper = false;
      } else {
        upper = true;
      }
    }
    return b.length() == 0 ? "Unknown" : b.toString();
  }

  /**
   * Wraps an implementation of a protocol interface so that every call's duration in
   * milliseconds is passed to {@code sink} with the method's name (capitalized). Exceptions pass
   * through unchanged.
   */
  public static <T> T timed(Class<T> protocol, T target, ObjLongConsumer<String> sink) {
    Object proxy = Proxy.newProxyInstance(protocol.getClassLoader(), new Class<?>[] {protocol},
        (p, method, args) -> {
          if (method.getDeclaringClass() == Object.class) {
            return method.invoke(target, args);
          }
          long start = Time.monotonicNow();
          try {
            return method.invoke(target, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          } finally {
            sink.accept(method.getName().substring(0, 1).toUpperCase(Locale.ROOT)
                + method.getName().substring(1), Time.monotonicNow() - start);
          }
        });
    return protocol.cast(proxy);
  }
}
