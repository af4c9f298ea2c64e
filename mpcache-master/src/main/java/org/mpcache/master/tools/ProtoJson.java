package org.mpcache.master.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.EnumValueDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Descriptors.FieldDescriptor;
import org.apache.hadoop.thirdparty.protobuf.Message;

/**
 * The JSON {@code mpcache admin -json} prints: a protobuf message as an object whose keys are the
 * proto field names (camelCase, as in {@code AdminProtocol.proto}), numbers as numbers, repeated
 * fields as arrays, enums by name; unset optional fields are left out. The master's web UI serves
 * the same JSON. Stateless.
 */
public final class ProtoJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private ProtoJson() {
  }

  /** The message as a JSON object. */
  public static ObjectNode toJson(Message m) {
    ObjectNode o = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<FieldDescriptor, Object> e : m.getAllFields().entrySet()) {
      FieldDescriptor f = e.getKey();
      if (f.isRepeated()) {
        ArrayNode a = o.putArray(f.getName());
        for (Object v : (List<?>) e.getValue()) {
          add(a, f, v);
        }
      } else {
        put(o, f, e.getValue());
      }
    }
    return o;
  }

  private static void put(ObjectNode o, FieldDescriptor f, Object v) {
    String k = f.getName();
    switch (f.getJavaType()) {
      case MESSAGE:
        o.set(k, toJson((Message) v));
        break;
      case ENUM:
        o.put(k, ((EnumValueDescriptor) v).getName());
        break;
      case INT:
        o.put(k, unsigned(f) ? Integer.toUnsignedLong((Integer) v) : (Integer) v);
        break;
      case LONG:
        o.put(k, (Long) v);
        break;
      case DOUBLE:
        o.put(k, (Double) v);
        break;
      case FLOAT:
        o.put(k, (Float) v);
        break;
      case BOOLEAN:
        o.put(k, (Boolean) v);
        break;
      default:
        o.put(k, String.valueOf(v));
    }
  }

  private static void add(ArrayNode a, FieldDescriptor f, Object v) {
    ObjectNode holder = JsonNodeFactory.instance.objectNode();
    put(holder, f, v);
    a.add(holder.get(f.getName()));
  }

  private static boolean unsigned(FieldDescriptor f) {
    return f.getType() == FieldDescriptor.Type.UINT32 || f.getType() == FieldDescriptor.Type.FIXED32;
  }

  /** Pretty-printed JSON text. */
  static String print(ObjectNode node) {
    try {
      return MAPPER.writeValueAsString(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print JSON", e);
    }
  }
}
