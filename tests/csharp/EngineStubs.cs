// The few engine types the examples in examples/csharp/README.md use, so that
// scripts/test-c.sh compiles those examples as shown (with the binding) without
// Unity or Godot installed.
namespace UnityEngine
{
    public class MonoBehaviour
    {
    }
}

namespace Godot
{
    public partial class Node
    {
        public virtual void _ExitTree()
        {
        }
    }
}
