// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/**
 * @title EIP3009Token
 * @notice A 6-decimal ERC-20 with EIP-3009 transfer/receive/cancel authorizations, for local tests
 * and the demo. It is initialized once after deployment (like FiatToken behind its proxy), so the
 * same runtime code can also be installed with `anvil_setCode` at a fixed address (for example
 * Base Sepolia USDC, which the official x402 v1 `verify` expects) and then given its name/version.
 * The EIP-712 domain separator is computed on every call from the current chain id and
 * address(this), so it is right wherever the code lives.
 *
 * Revert strings. Seed 004 gives the wording wallets see; FiatToken's own is used where the seed
 * gives none:
 *   "FiatTokenV2_2: invalid signature"                signer is not `from` / malformed signature (seed)
 *   "FiatTokenV2_2: authorization expired"            block.timestamp >= validBefore (seed)
 *   "FiatTokenV2_2: authorization is not yet valid"   block.timestamp <= validAfter (FiatToken's)
 *   "FiatTokenV2_2: authorization is used or canceled" replayed or canceled nonce (FiatToken's; the
 *       seed says "nonce already used", but the official x402 facilitator recognises a replay only
 *       by /authorization.*used/, so FiatToken's wording is kept)
 *   "FiatTokenV2_2: invalid receiver"                 receiveWithAuthorization not called by `to`
 *       (seed; FiatToken says "caller must be the payee")
 *   "ERC20: transfer amount exceeds balance"          (FiatToken's)
 *   "ERC20: transfer amount exceeds allowance"        (FiatToken's)
 *   "ERC20: transfer to the zero address"             (FiatToken's)
 *   "ERC20: approve to the zero address"              (FiatToken's)
 *   "FiatToken: caller is not a minter"               (FiatToken's)
 *   "FiatToken: mint to the zero address"             (FiatToken's)
 *   "FiatToken: contract is already initialized"      (FiatToken's)
 *   "FiatToken: new minter is the zero address"       (FiatToken's)
 */
contract EIP3009Token {
    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256(
            "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
        );
    bytes32 public constant RECEIVE_WITH_AUTHORIZATION_TYPEHASH =
        keccak256(
            "ReceiveWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
        );
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    // Signatures with s in the upper half are malleable copies; FiatToken rejects them too.
    uint256 private constant SECP256K1_HALF_N =
        0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    uint8 public constant decimals = 6;

    string public name;
    string public symbol;
    string public version;
    address public minter;
    bool private initialized;

    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => mapping(bytes32 => bool)) private authorizationStates;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Mint(address indexed minter, address indexed to, uint256 amount);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    function initialize(
        string calldata tokenName,
        string calldata tokenSymbol,
        string calldata tokenVersion,
        address tokenMinter
    ) external {
        require(!initialized, "FiatToken: contract is already initialized");
        require(tokenMinter != address(0), "FiatToken: new minter is the zero address");
        initialized = true;
        name = tokenName;
        symbol = tokenSymbol;
        version = tokenVersion;
        minter = tokenMinter;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return
            keccak256(
                abi.encode(
                    EIP712_DOMAIN_TYPEHASH,
                    keccak256(bytes(name)),
                    keccak256(bytes(version)),
                    block.chainid,
                    address(this)
                )
            );
    }

    function mint(address to, uint256 amount) external {
        require(msg.sender == minter, "FiatToken: caller is not a minter");
        require(to != address(0), "FiatToken: mint to the zero address");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Mint(msg.sender, to, amount);
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        require(spender != address(0), "ERC20: approve to the zero address");
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        require(value <= allowance[from][msg.sender], "ERC20: transfer amount exceeds allowance");
        allowance[from][msg.sender] -= value;
        _transfer(from, to, value);
        return true;
    }

    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return authorizationStates[authorizer][nonce];
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public {
        _transferWithAuthorization(
            TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) public {
        // Only the payee may submit, so a front-runner cannot redirect the call's side effects.
        require(to == msg.sender, "FiatTokenV2_2: invalid receiver");
        _transferWithAuthorization(
            RECEIVE_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce, signature
        );
    }

    /// Both authorization kinds: same checks, same transfer, only the signed type differs.
    function _transferWithAuthorization(
        bytes32 typehash,
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) internal {
        _requireValidAuthorization(from, nonce, validAfter, validBefore);
        bytes32 structHash = keccak256(abi.encode(typehash, from, to, value, validAfter, validBefore, nonce));
        _requireValidSignature(from, structHash, signature);
        _useAuthorization(from, nonce);
        _transfer(from, to, value);
    }

    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) external {
        receiveWithAuthorization(from, to, value, validAfter, validBefore, nonce, abi.encodePacked(r, s, v));
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) public {
        require(!authorizationStates[authorizer][nonce], "FiatTokenV2_2: authorization is used or canceled");
        _requireValidSignature(authorizer, keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)), signature);
        authorizationStates[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        cancelAuthorization(authorizer, nonce, abi.encodePacked(r, s, v));
    }

    function _requireValidAuthorization(
        address authorizer,
        bytes32 nonce,
        uint256 validAfter,
        uint256 validBefore
    ) private view {
        require(block.timestamp > validAfter, "FiatTokenV2_2: authorization is not yet valid");
        require(block.timestamp < validBefore, "FiatTokenV2_2: authorization expired");
        require(!authorizationStates[authorizer][nonce], "FiatTokenV2_2: authorization is used or canceled");
    }

    function _requireValidSignature(address signer, bytes32 structHash, bytes memory signature) private view {
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(_recover(digest, signature) == signer && signer != address(0), "FiatTokenV2_2: invalid signature");
    }

    function _useAuthorization(address authorizer, bytes32 nonce) private {
        authorizationStates[authorizer][nonce] = true;
        emit AuthorizationUsed(authorizer, nonce);
    }

    /// @dev Returns address(0) for anything that is not a canonical 65-byte (r, s, v) signature.
    function _recover(bytes32 digest, bytes memory signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        if (uint256(s) > SECP256K1_HALF_N || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "ERC20: transfer to the zero address");
        require(value <= balanceOf[from], "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
