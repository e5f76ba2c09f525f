import torch
from torch import Tensor


def relu_sqrt(input: Tensor, inplace: bool=False, out: Tensor=None) -> Tensor:
    """
    Applies the rectified linear unit (ReLU) function to each element in input,
    and then computes the square root of the result.
    
    Args:
        input (Tensor): The input tensor.
        inplace (bool, optional): If True, modifies input in-place (if possible). Default is False.
        out (Tensor, optional): The output tensor.
    
    Returns:
        Tensor: The result of applying relu followed by sqrt.
    
    Example:
        >>> import torch
        >>> a = torch.tensor([-1.0, 0.0, 4.0, 9.0])
        >>> result = relu_sqrt(a)
        >>> print(result)
        tensor([0.0000, 0.0000, 2.0000, 3.0000])
        >>> result = relu_sqrt(a, inplace=True)
        >>> print(result)
        tensor([0.0000, 0.0000, 2.0000, 3.0000])
    """
    if input.dtype != torch.float32 and input.dtype != torch.float64:
        input = input.float()
    if inplace:
        input.relu_()
        input.sqrt_()
        return input
    elif out is not None:
        out.copy_(torch.sqrt(torch.relu(input)))
        return out
    else:
        return torch.sqrt(torch.relu(input))

##################################################################################################################################################


import torch
from torch import Tensor

# def relu_sqrt(input: Tensor, inplace: bool=False, out: Tensor=None) -> Tensor:
#     if input.dtype != torch.float32 and input.dtype != torch.float64:
#         input = input.float()
#     if inplace:
#         input.relu_()
#         input.sqrt_()
#         return input
#     elif out is not None:
#         out.copy_(torch.sqrt(torch.relu(input)))
#         return out
#     else:
#         return torch.sqrt(torch.relu(input))

def test_relu_sqrt():
    results = {}
    
    # Test case 1: Default parameters
    a = torch.tensor([-1.0, 0.0, 4.0, 9.0], device='cuda')
    results["test_case_1"] = relu_sqrt(a)
    
    # Test case 2: Inplace operation
    b = torch.tensor([-1.0, 0.0, 4.0, 9.0], device='cuda')
    results["test_case_2"] = relu_sqrt(b, inplace=True)
    
    # Test case 3: Out parameter
    c = torch.tensor([-1.0, 0.0, 4.0, 9.0], device='cuda')
    out = torch.empty_like(c)
    results["test_case_3"] = relu_sqrt(c, out=out)
    
    # Test case 4: Non-float input
    d = torch.tensor([-1, 0, 4, 9], device='cuda')
    results["test_case_4"] = relu_sqrt(d)
    
    return results

test_results = test_relu_sqrt()
